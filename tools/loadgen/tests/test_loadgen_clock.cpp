// carom-loadgen's run clock: the load generator's own stalls, left out of
// the gaps that judge the server.
#include <doctest/doctest.h>

#include "clock.hpp"

namespace carom::loadgen {
namespace {

TEST_CASE("a loop on time has no stalls of its own") {
    RunClock clock;
    for (std::uint64_t ms = 0; ms <= 10'000; ms += 17)
        clock.loop_ran(ms);
    CHECK(clock.own_stalls_ms(10'000) == 0);
    CHECK(clock.awake_ms(10'000) == 10'000);
}

TEST_CASE("a loop that stood still counts the time beyond two ticks as its own") {
    RunClock clock;
    clock.loop_ran(0);
    const std::uint64_t last_update = clock.awake_ms(10);
    clock.loop_ran(17);
    // Descheduled for 200 ms: 33 ms of it is slack, 167 ms its own stall.
    CHECK(clock.own_stalls_ms(117) == 67);  // still going
    clock.loop_ran(217);
    CHECK(clock.own_stalls_ms(217) == 167);
    CHECK(clock.awake_ms(234) == 234 - 167);
    // The next update at 230 ms: a silence of 220 ms, 53 ms of it the server's.
    CHECK(clock.awake_ms(230) - last_update == 53);
}

TEST_CASE("the awake clock never runs backwards") {
    RunClock clock;
    clock.loop_ran(0);
    std::uint64_t last = 0;
    for (std::uint64_t ms = 0; ms <= 1'000; ++ms) {
        if (ms % 250 == 0) clock.loop_ran(ms);  // the loop runs rarely
        const std::uint64_t awake = clock.awake_ms(ms);
        CHECK(awake >= last);
        last = awake;
    }
    CHECK(last == 4 * 33);  // the slack of each of the four stalls
}

}  // namespace
}  // namespace carom::loadgen
