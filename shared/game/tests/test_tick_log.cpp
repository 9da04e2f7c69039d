// The tick log (tick_log.hpp): a tick's roster changes and inputs, then the step.
#include "carom/game/tick_log.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "test_support.hpp"

using namespace carom::game;

namespace {

// Writes nothing: no input changed at the tick.
const auto kNoInputChange = [](std::span<Input>) {};

}  // namespace

TEST_CASE("play_tick joins and leaves before the step, each slot's held input back to idle") {
    Match m(test::small_map(2), 1);
    REQUIRE(join_all(m, std::vector<RosterEntry>{{0, "ana", false}, {2, "bob", true}}).ok());
    std::vector<Input> held(m.slot_count(), Input::move(3, true));
    const std::vector<RosterChange> changes{{1, 1, true, "cid", false}, {1, 2, false, {}, false}};
    bool inputs_asked = false;
    const auto played = play_tick(m, changes, held, [&](std::span<Input> h) {
        inputs_asked = true;
        CHECK(h[1] == Input{});  // joined: idle until it changes
        CHECK(h[2] == Input{});  // left
        h[1] = Input::move(5);
    });
    REQUIRE(played.ok());
    CHECK(inputs_asked);
    CHECK(m.tick() == 1);
    CHECK(m.active(1));
    CHECK_FALSE(m.active(2));
    CHECK(m.last_input(1) == Input::move(5));
    CHECK(m.last_input(0) == Input::move(3, true));  // held, not reset
}

TEST_CASE("play_tick refuses a change the match cannot take, with its tick, and does not step") {
    Match m(test::small_map(1), 1);
    std::vector<Input> held(m.slot_count());
    const std::vector<RosterChange> leave_empty{{1, 0, false, {}, false}};
    const auto left = play_tick(m, leave_empty, held, kNoInputChange);
    REQUIRE_FALSE(left.ok());
    CHECK(left.error().message == "tick 1: leave: slot is empty");
    CHECK(m.tick() == 0);

    const std::vector<RosterChange> twice{{1, 0, true, "ana", false}, {1, 0, true, "bob", false}};
    const auto joined = play_tick(m, twice, held, kNoInputChange);
    REQUIRE_FALSE(joined.ok());
    CHECK(joined.error().message == "tick 1: join: slot is taken");
    CHECK(m.name(0) == "ana");  // the change before the refused one stands

    const std::vector<RosterChange> outside{{1, 7, true, "cid", false}};
    CHECK(play_tick(m, outside, held, kNoInputChange).error().message ==
          "tick 1: join: slot out of range");
    CHECK_FALSE(join_all(m, std::vector<RosterEntry>{{0, "dan", false}}).ok());
}

TEST_CASE("play_tick of a halted room changes its roster and does not step") {
    Match m(test::small_map(1), 1);
    std::vector<Input> held(m.slot_count());
    const std::vector<RosterChange> join{{1, 0, true, "ana", false}};
    const auto played = play_tick(m, join, held, kNoInputChange, true);
    REQUIRE(played.ok());
    CHECK(played->empty());
    CHECK(m.active(0));
    CHECK(m.tick() == 0);
}

TEST_CASE("changes_at takes a tick's entries and skips those before it") {
    const std::vector<RosterChange> log{{1, 0, true, "a", false},
                                        {3, 1, true, "b", false},
                                        {3, 0, false, {}, false},
                                        {5, 1, false, {}, false}};
    std::size_t next = 0;
    CHECK(changes_at<RosterChange>(log, next, 2).empty());
    CHECK(next == 1);  // past tick 1, which came before
    const auto at3 = changes_at<RosterChange>(log, next, 3);
    REQUIRE(at3.size() == 2);
    CHECK(at3[0].slot == 1);
    CHECK(at3[1].slot == 0);
    CHECK(next == 3);
    CHECK(changes_at<RosterChange>(log, next, 6).empty());
    CHECK(next == 4);
}
