// The sweep's event queue against a sort: events come out in the total order
// (time, disk, kind, other), through any mix of pushes and pops.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "event_queue.hpp"

namespace carom::physics::detail {
namespace {

auto key(const SweepEvent& e) {
    return std::make_tuple(e.t, e.a, e.kind, e.b);
}

TEST_CASE("event queue pops events in (time, disk, kind, other) order") {
    std::uint32_t state = 12345;
    const auto next = [&state](std::uint32_t bound) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state % bound;
    };
    EventQueue queue;
    std::vector<SweepEvent> pending;  // what the queue should hold
    for (std::uint32_t round = 0; round < 4000; ++round) {
        // Few distinct times, disks and others, so that ties are common.
        if (pending.empty() || next(3) != 0) {
            const SweepEvent e{next(8) / 8.0,
                               next(6),
                               next(6),
                               round % 7u,
                               0,
                               next(2) == 0 ? EventKind::disk_disk : EventKind::disk_static};
            queue.push(e);
            pending.push_back(e);
            continue;
        }
        const auto earliest = std::min_element(
            pending.begin(), pending.end(),
            [](const SweepEvent& x, const SweepEvent& y) { return key(x) < key(y); });
        const SweepEvent got = queue.pop();
        CHECK(key(got) == key(*earliest));
        // Equal keys may come out in either order; drop one with this key.
        pending.erase(std::find_if(pending.begin(), pending.end(),
                                   [&](const SweepEvent& e) { return key(e) == key(got); }));
    }
    while (!pending.empty()) {
        CHECK_FALSE(queue.empty());
        const SweepEvent got = queue.pop();
        const auto earliest = std::min_element(
            pending.begin(), pending.end(),
            [](const SweepEvent& x, const SweepEvent& y) { return key(x) < key(y); });
        CHECK(key(got) == key(*earliest));
        pending.erase(std::find_if(pending.begin(), pending.end(),
                                   [&](const SweepEvent& e) { return key(e) == key(got); }));
    }
    CHECK(queue.empty());
}

}  // namespace
}  // namespace carom::physics::detail
