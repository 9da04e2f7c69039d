#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "carom/linksim/link_simulator.hpp"

using carom::linksim::LinkSimulator;
using carom::linksim::LinkSpec;

namespace {

// Sends `count` datagrams of `bytes`, one every `spacing_us`, each carrying
// its index; returns (index, arrival) in arrival order.
struct Arrival {
    std::uint32_t index;
    std::int64_t at_us;
    std::int64_t sent_us;
};

std::vector<Arrival> run(const LinkSpec& spec, std::uint64_t seed, std::uint32_t count,
                         std::int64_t spacing_us, std::size_t bytes = 100) {
    LinkSimulator<std::int64_t> link(spec, seed);
    std::vector<Arrival> out;
    std::vector<std::uint8_t> datagram(bytes);
    std::int64_t now = 0;
    for (std::uint32_t i = 0; i < count; ++i, now += spacing_us) {
        link.deliver(now, [&](std::span<const std::uint8_t> b, std::int64_t sent) {
            std::uint32_t index = 0;
            std::memcpy(&index, b.data(), sizeof index);
            out.push_back({index, now, sent});
        });
        std::memcpy(datagram.data(), &i, sizeof i);
        link.send(now, datagram, now);
    }
    while (const auto due = link.next_due_us()) {
        now = *due;
        link.deliver(now, [&](std::span<const std::uint8_t> b, std::int64_t sent) {
            std::uint32_t index = 0;
            std::memcpy(&index, b.data(), sizeof index);
            out.push_back({index, now, sent});
        });
    }
    CHECK(link.stats().delivered == out.size());
    return out;
}

std::uint64_t seed_for(const std::string& what) {
    const std::uint64_t seed = 0xC0FFEE;
    MESSAGE(what << ": seed " << seed);
    return seed;
}

}  // namespace

TEST_CASE("link model: a perfect link delivers everything at once, in order") {
    const auto got = run(LinkSpec{}, 1, 1000, 1000);
    REQUIRE(got.size() == 1000);
    bool in_order = true;
    for (std::uint32_t i = 0; i < got.size(); ++i)
        in_order = in_order && got[i].index == i;
    CHECK(in_order);
    carom::linksim::LinkModel model(LinkSpec{}, 1);
    const auto fate = model.send(12'345, 100);
    CHECK(fate.copies == 1);
    CHECK(fate.arrive_us[0] == 12'345);
}

TEST_CASE("link model: the same seed gives the same fates, another seed others") {
    LinkSpec spec;
    spec.loss_percent = 10, spec.latency_ms = 100, spec.jitter_ms = 30;
    spec.duplicate_percent = 2, spec.reorder_percent = 2;
    const auto a = run(spec, 7, 5000, 16'667);
    const auto b = run(spec, 7, 5000, 16'667);
    const auto c = run(spec, 8, 5000, 16'667);
    REQUIRE(a.size() == b.size());
    bool same = true;
    for (std::size_t i = 0; i < a.size(); ++i)
        same = same && a[i].index == b[i].index && a[i].at_us == b[i].at_us;
    CHECK(same);
    bool differs = a.size() != c.size();
    for (std::size_t i = 0; !differs && i < a.size(); ++i)
        differs = a[i].index != c[i].index || a[i].at_us != c[i].at_us;
    CHECK(differs);
}

TEST_CASE("link model: loss, duplication and reordering rates match the spec") {
    const std::uint64_t seed = seed_for("rates");
    LinkSpec spec;
    spec.loss_percent = 10, spec.duplicate_percent = 2, spec.reorder_percent = 2;
    spec.latency_ms = 100, spec.jitter_ms = 30;
    constexpr std::uint32_t n = 100'000;
    LinkSimulator<> link(spec, seed);
    const std::uint8_t byte = 0;
    for (std::uint32_t i = 0; i < n; ++i)
        link.send(std::int64_t{i} * 16'667, {&byte, 1});
    const auto& s = link.stats();
    CHECK(s.sent == n);
    // Binomial: 10 % of 100 000 has sigma ~95; 2 % of 90 000 sigma ~42. Bounds at > 5 sigma.
    CHECK(s.lost > 9'500);
    CHECK(s.lost < 10'500);
    CHECK(s.duplicated > 1'550);
    CHECK(s.duplicated < 2'050);
    CHECK(s.reordered > 1'550);
    CHECK(s.reordered < 2'050);
    CHECK(link.in_flight() == n - s.lost + s.duplicated);
}

TEST_CASE("link model: delays stay within latency +- jitter, centred on the latency") {
    const std::uint64_t seed = seed_for("delays");
    LinkSpec spec;
    spec.latency_ms = 100, spec.jitter_ms = 30;
    // Spaced 1 s apart, so that keeping order never lengthens a delay.
    double sum = 0, low = 1e9, high = 0;
    carom::linksim::LinkModel model(spec, seed);
    for (int i = 0; i < 20'000; ++i) {
        const std::int64_t now = std::int64_t{i} * 1'000'000;
        const auto fate = model.send(now, 100);
        REQUIRE(fate.copies == 1);
        const double ms = static_cast<double>(fate.arrive_us[0] - now) / 1000.0;
        sum += ms, low = std::min(low, ms), high = std::max(high, ms);
    }
    CHECK(low >= 70.0);
    CHECK(high <= 130.0);
    CHECK(low < 71.0);  // the whole range is used
    CHECK(high > 129.0);
    CHECK(std::abs(sum / 20'000 - 100.0) < 1.0);  // uniform: sigma of the mean ~0.12 ms
}

TEST_CASE("link model: jitter alone never reorders, the reorder knob does") {
    LinkSpec spec;
    spec.latency_ms = 100, spec.jitter_ms = 30;
    auto got = run(spec, 3, 5000, 1000);  // 1 ms apart: jitter would swap most of them
    REQUIRE(got.size() == 5000);
    CHECK(std::is_sorted(got.begin(), got.end(),
                         [](const Arrival& a, const Arrival& b) { return a.index < b.index; }));
    spec.reorder_percent = 5;
    got = run(spec, 3, 5000, 1000);
    std::size_t overtaken = 0;
    for (std::size_t i = 1; i < got.size(); ++i)
        if (got[i].index < got[i - 1].index) ++overtaken;
    CHECK(overtaken > 150);  // ~250 held back, each overtaken by the next one at least
}

TEST_CASE("link model: the bandwidth cap spaces datagrams and drops past the queue") {
    LinkSpec spec;
    spec.rate_kbit = 80;  // 1000-byte datagram: 8000 bits, 100 ms on the wire
    spec.queue_ms = 250;
    carom::linksim::LinkModel model(spec, 1);
    std::vector<std::int64_t> arrivals;
    for (int i = 0; i < 6; ++i) {  // all sent at t = 0
        const auto fate = model.send(0, 1000);
        if (fate.copies == 1) arrivals.push_back(fate.arrive_us[0]);
    }
    // Waits of 0, 100, 200 ms are within the queue; 300 ms is not.
    REQUIRE(arrivals.size() == 3);
    CHECK(arrivals[0] == 100'000);
    CHECK(arrivals[1] == 200'000);
    CHECK(arrivals[2] == 300'000);
    CHECK(model.stats().overflowed == 3);
    // Once the queue has drained, the link takes datagrams again.
    CHECK(model.send(400'000, 1000).copies == 1);
}

TEST_CASE("link model: a sustained overload delivers no more than the rate") {
    LinkSpec spec;
    spec.rate_kbit = 512;
    spec.latency_ms = 50;
    const auto got = run(spec, 5, 10'000, 1000, 200);  // 200 B/ms = 1600 kbit/s offered for 10 s
    const double seconds = static_cast<double>(got.back().at_us) / 1e6;
    const double kbit = static_cast<double>(got.size()) * 200 * 8 / 1000.0 / seconds;
    MESSAGE("delivered " << got.size() << " datagrams, " << kbit << " kbit/s");
    CHECK(kbit <= 512.0 * 1.01);
    CHECK(kbit > 512.0 * 0.95);
}
