// Who a goal names (match.hpp, MatchEvent): the scorer is the puck's last
// kicker when on the scoring team, an own goal names the defender who put it
// in, and a player's goals count the events that credit him.
#include <doctest/doctest.h>

#include <vector>

#include "carom/game/match.hpp"
#include "test_support.hpp"

using namespace carom::game;

namespace {

// Slot 0 is left, slot 1 right (team size 1). The puck flies into the left
// goal (a goal for the right team), last kicked by `kicker`.
std::vector<MatchEvent> shot_into_left_goal(Match& m, std::optional<Slot> kicker) {
    MatchState s = m.save();
    s.pucks[0].disk = {{5.0, 15.0}, {-120.0, 0.0}};
    s.pucks[0].last_kicker = kicker;
    m.restore(s);
    const std::vector<Input> idle(m.slot_count());
    for (int i = 0; i < 10; ++i) {
        const auto events = m.step(idle);
        if (!events.empty()) return {events.begin(), events.end()};
    }
    return {};
}

Match two_players() {
    Match m(test::small_map(), 1);
    m.join(0, "left");
    m.join(1, "right");
    return m;
}

}  // namespace

TEST_CASE("an own goal names the defender who put it in, and credits nobody") {
    Match m = two_players();
    const auto events = shot_into_left_goal(m, 0);  // the left player, into his own goal
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == MatchEvent::Kind::goal);
    CHECK(events[0].team == Team::right);
    CHECK_FALSE(events[0].scorer.has_value());
    CHECK(events[0].own_goal_by == 0u);
    CHECK(m.score(Team::right) == 1);
    CHECK(m.save().players[0].goals == 0);
    CHECK(m.save().players[1].goals == 0);
}

TEST_CASE("a goal names the attacker who kicked it last, and credits him") {
    Match m = two_players();
    const auto events = shot_into_left_goal(m, 1);
    REQUIRE(events.size() == 1);
    CHECK(events[0].scorer == 1u);
    CHECK_FALSE(events[0].own_goal_by.has_value());
    CHECK(m.save().players[1].goals == 1);
}

TEST_CASE("a goal nobody kicked names neither scorer nor own goal") {
    Match m = two_players();
    const auto events = shot_into_left_goal(m, std::nullopt);
    REQUIRE(events.size() == 1);
    CHECK_FALSE(events[0].scorer.has_value());
    CHECK_FALSE(events[0].own_goal_by.has_value());
}

TEST_CASE("the end event tells a draw from a win") {
    for (const int goals_right : {0, 1}) {
        CAPTURE(goals_right);
        Map map = test::small_map();
        map.match_seconds = 1;
        Match m(map, 1);
        m.join(0, "left");
        m.join(1, "right");
        if (goals_right) shot_into_left_goal(m, 1);
        std::vector<MatchEvent> ends;
        const std::vector<Input> idle(m.slot_count());
        for (int i = 0; i < 200 && m.phase() != Phase::finished; ++i)
            for (const MatchEvent& e : m.step(idle))
                if (e.kind == MatchEvent::Kind::end) ends.push_back(e);
        REQUIRE(ends.size() == 1);
        CHECK(ends[0].draw == (goals_right == 0));
        if (goals_right) CHECK(ends[0].team == Team::right);
    }
}
