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

// xorshift32 (shifts 13, 17, 5): next(bound) is a draw in [0, bound).
struct Xorshift {
    std::uint32_t state;
    std::uint32_t operator()(std::uint32_t bound) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state % bound;
    }
};

// Checks that the queue hands out what `pending` holds, earliest first, and
// forgets it; equal keys may come out in either order.
void check_pop(EventQueue& queue, std::vector<SweepEvent>& pending) {
    REQUIRE_FALSE(queue.empty());
    const auto earliest =
        std::min_element(pending.begin(), pending.end(),
                         [](const SweepEvent& x, const SweepEvent& y) { return key(x) < key(y); });
    const SweepEvent got = queue.pop();
    CHECK(key(got) == key(*earliest));
    pending.erase(std::find_if(pending.begin(), pending.end(),
                               [&](const SweepEvent& e) { return key(e) == key(got); }));
}

TEST_CASE("event queue pops events in (time, disk, kind, other) order") {
    Xorshift next{12345u};
    EventQueue queue;
    // Each use sizes the next one's calendar: from one bucket to hundreds.
    // Times are coarse (ties are common) or fine, some past the horizon;
    // pushes come between pops, earlier or later than what was popped.
    for (int use = 0; use < 4; ++use) {
        CAPTURE(use);
        const double horizon = 0.5 + use;
        queue.reset(horizon);
        const bool coarse = use % 2 == 0;
        std::vector<SweepEvent> pending;  // what the queue should hold
        for (std::uint32_t round = 0; round < 4000; ++round) {
            if (pending.empty() || next(3) != 0) {
                const double t = coarse ? next(8) / 8.0 * horizon : next(1200) / 1000.0 * horizon;
                const SweepEvent e{
                    t,       next(6),
                    next(6), round % 7u,
                    0,       next(2) == 0 ? EventKind::disk_disk : EventKind::disk_static};
                queue.push(e);
                pending.push_back(e);
                continue;
            }
            check_pop(queue, pending);
        }
        while (!pending.empty())
            check_pop(queue, pending);
        CHECK(queue.empty());
    }
}

TEST_CASE("event queue hands out a sweep's events in order, whichever bucket they wait in") {
    // As the sweep uses it: a burst of events across the tick, then pops,
    // each followed by a few events no earlier than the one popped.
    Xorshift next{777u};
    constexpr double kTick = 1.0 / 60.0;
    EventQueue queue;
    for (int tick = 0; tick < 3; ++tick) {
        queue.reset(kTick);
        std::vector<SweepEvent> pending;
        for (std::uint32_t k = 0; k < 3000; ++k) {
            const SweepEvent e{kTick * next(100000) / 100000.0,
                               next(5000),
                               next(5000),
                               0,
                               0,
                               EventKind::disk_disk};
            queue.push(e);
            pending.push_back(e);
        }
        // Each of the first pops is followed by up to two events no earlier than it.
        for (std::uint32_t pops = 0; !pending.empty(); ++pops) {
            const double now = queue.top().t;
            check_pop(queue, pending);
            if (pops >= 3000) continue;
            for (std::uint32_t k = next(3); k > 0; --k) {
                const double t = std::min(now + kTick * next(1000) / 4000.0, kTick);
                const SweepEvent e{t, next(5000), next(5000), 1, 1, EventKind::disk_static};
                queue.push(e);
                pending.push_back(e);
            }
        }
        CHECK(queue.empty());
    }
}

}  // namespace
}  // namespace carom::physics::detail
