// The match (match.hpp): slots, movement, kicks, goals, clock, save/restore, hash.
#include "carom/game/match.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "test_support.hpp"

using namespace carom::game;
using carom::physics::Vec2;

namespace {

std::vector<Input> idle_inputs(const Match& m) {
    return std::vector<Input>(m.slot_count());
}

}  // namespace

TEST_CASE("A bad map is refused with the field") {
    Map m = test::small_map();
    m.puck_spawns.clear();
    CHECK_THROWS_WITH_AS(Match(m, 1), "map small: puck_spawns: need between 1 and 16 pucks",
                         std::invalid_argument);
}

TEST_CASE("Slots: teams, free slots, join and leave") {
    Match m(test::small_map(2), 1);
    REQUIRE(m.slot_count() == 4);
    CHECK(m.team_of(0) == Team::left);
    CHECK(m.team_of(2) == Team::right);
    CHECK(m.free_slot() == 0u);
    m.join(0, "ana");
    CHECK(m.free_slot() == 2u);  // the team with fewer players
    CHECK(m.free_slot(Team::left) == 1u);
    CHECK_THROWS_AS(m.join(0, "bob"), std::invalid_argument);
    CHECK_THROWS_AS(m.join(4, "bob"), std::invalid_argument);
    CHECK_THROWS_AS(m.leave(1), std::invalid_argument);
    CHECK(m.player_disk(0).position == Vec2{15.0, 5.0});
    m.join(1, "bob");
    m.join(2, "cy");
    m.join(3, "di");
    CHECK_FALSE(m.free_slot().has_value());
    m.leave(1);
    CHECK_FALSE(m.active(1));
    CHECK(m.free_slot() == 1u);
    // A player who left collides with nothing and is far away.
    CHECK(m.player_disk(1).filter.mask == 0u);
    CHECK(m.player_disk(1).position.x < -100.0);
}

TEST_CASE("Movement accelerates along the input and is capped") {
    Match m(test::small_map(), 1);
    m.join(0, "ana");
    std::vector<Input> in = idle_inputs(m);
    in[0] = Input::move(0);
    for (int i = 0; i < 600; ++i)
        m.step(in);  // 10 s of holding right, into the wall
    const Tuning t = m.map().tuning;
    CHECK(carom::physics::length(m.player_disk(0).velocity) <= t.player_max_speed * (1.0 + 1e-12));
    Match free(test::small_map(), 1);
    free.join(0, "ana");
    in[0] = Input::move(4);  // up: a few ticks, not yet at the wall
    for (int i = 0; i < 3; ++i)
        free.step(in);
    const Vec2 v = free.player_disk(0).velocity;
    CHECK(v.y > 0.0);
    CHECK(std::abs(v.x) < 1e-12);
    in[0] = Input{};
    for (int i = 0; i < 600; ++i)
        free.step(in);
    CHECK(carom::physics::length(free.player_disk(0).velocity) < 1e-3);  // drag stops it
}

TEST_CASE("Steps need one input per slot") {
    Match m(test::small_map(), 1);
    std::vector<Input> wrong(1);
    CHECK_THROWS_AS(m.step(wrong), std::invalid_argument);
}

TEST_CASE("A kick sends the puck away from the kicker, then cools down") {
    Match m(test::small_map(), 1);
    m.join(0, "ana");
    MatchState s = m.save();
    s.players[0].disk.position = {26.0, 15.0};  // puck at (30, 15): gap 0.75 < reach
    s.pucks[0].disk.velocity = {};
    m.restore(s);
    std::vector<Input> in = idle_inputs(m);
    in[0] = Input::idle(true);
    m.step(in);
    CHECK(m.puck_disk(0).velocity.x > 0.9 * m.map().tuning.kick_speed * (1.0 - 0.15 / 60));
    CHECK(m.save().pucks[0].last_kicker == 0u);
    CHECK(m.save().players[0].kick_cooldown == m.map().tuning.kick_cooldown_ticks);
    const Vec2 after_first = m.puck_disk(0).velocity;
    m.step(in);  // cooling down: no second kick
    CHECK(m.puck_disk(0).velocity.x <= after_first.x);
}

TEST_CASE("A puck through the mouth scores, pauses, then kicks off") {
    Match m(test::small_map(), 1);
    m.join(0, "ana");
    m.join(1, "bob");
    MatchState s = m.save();
    s.pucks[0].disk = {{5.0, 15.0}, {-120.0, 0.0}};  // into the left goal
    s.pucks[0].last_kicker = 1;
    m.restore(s);
    std::vector<Input> in = idle_inputs(m);
    std::vector<MatchEvent> events;
    for (int i = 0; i < 10 && events.empty(); ++i) {
        const auto e = m.step(in);
        events.assign(e.begin(), e.end());
    }
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == MatchEvent::Kind::goal);
    CHECK(events[0].team == Team::right);
    CHECK(events[0].scorer == 1u);
    CHECK(m.score(Team::right) == 1);
    CHECK(m.phase() == Phase::goal_pause);
    CHECK(m.save().players[1].goals == 1);
    bool kicked_off = false;
    for (std::uint32_t i = 0; i < kGoalPauseTicks && !kicked_off; ++i) {
        for (const MatchEvent& e : m.step(in))
            kicked_off |= e.kind == MatchEvent::Kind::kickoff;
    }
    CHECK(kicked_off);
    CHECK(m.phase() == Phase::playing);
    CHECK(m.player_disk(0).position == Vec2{15.0, 5.0});
    CHECK(carom::physics::length(m.puck_disk(0).position - Vec2{30.0, 15.0}) < 0.1);
}

TEST_CASE("A puck beside the goal does not score") {
    Match m(test::small_map(), 1);
    MatchState s = m.save();
    s.pucks[0].disk = {{5.0, 25.0}, {-120.0, 0.0}};  // at the wall above the post
    m.restore(s);
    std::vector<Input> in = idle_inputs(m);
    for (int i = 0; i < 30; ++i)
        CHECK(m.step(in).empty());
    CHECK(m.score(Team::right) == 0);
}

TEST_CASE("The match ends on time, and a finished match no longer steps") {
    Map map = test::small_map();
    map.match_seconds = 1;
    Match m(map, 1);
    std::vector<Input> in = idle_inputs(m);
    std::vector<MatchEvent> last;
    for (std::uint32_t i = 0; i < kTickRate; ++i) {
        const auto e = m.step(in);
        last.assign(e.begin(), e.end());
    }
    CHECK(m.phase() == Phase::finished);
    REQUIRE(last.size() == 1);
    CHECK(last[0].kind == MatchEvent::Kind::end);
    CHECK(last[0].draw);
    const auto hash = m.state_hash();
    CHECK(m.step(in).empty());
    CHECK(m.tick() == kTickRate);
    CHECK(m.state_hash() == hash);
}

TEST_CASE("The same inputs give the same match, and save and restore continue exactly") {
    auto run = [](Match& m, int from, int to) {
        std::vector<Input> in(m.slot_count());
        for (int t = from; t < to; ++t) {
            for (Slot s = 0; s < m.slot_count(); ++s)
                in[s] =
                    Input::move(static_cast<std::uint8_t>((static_cast<Slot>(t) / 7 + 5 * s) % 16),
                                t % 11 == 0);
            m.step(in);
        }
    };
    Match a(test::small_map(2), 42);
    Match b(test::small_map(2), 42);
    for (Match* m : {&a, &b}) {
        m->join(0, "a");
        m->join(1, "b");
        m->join(2, "c");
    }
    run(a, 0, 300);
    run(b, 0, 300);
    CHECK(a.state_hash() == b.state_hash());

    // A fresh match restored from a's state continues exactly like a.
    Match c(test::small_map(2), 42);
    c.restore(a.save());
    CHECK(c.state_hash() == a.state_hash());
    run(a, 300, 600);
    run(c, 300, 600);
    CHECK(c.state_hash() == a.state_hash());

    // Another seed is another match.
    Match d(test::small_map(2), 43);
    CHECK(d.state_hash() != Match(test::small_map(2), 42).state_hash());
}

TEST_CASE("The hash sees every saved field") {
    Match m(test::small_map(), 7);
    m.join(0, "ana");
    const MatchState base = m.save();
    const auto base_hash = m.state_hash();
    auto hash_with = [&](void (*change)(MatchState&)) {
        Match copy(test::small_map(), 7);
        MatchState s = base;
        change(s);
        copy.restore(s);
        return copy.state_hash();
    };
    CHECK(hash_with([](MatchState&) {}) == base_hash);
    CHECK(hash_with([](MatchState& s) { s.tick += 1; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.score[1] = 1; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.rng ^= 1; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.phase = Phase::finished; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.players[0].kick_cooldown = 3; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.players[0].last_input = Input::move(3); }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.players[0].name = "anb"; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.players[1].active = true; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.pucks[0].disk.velocity.x += 1e-12; }) != base_hash);
    CHECK(hash_with([](MatchState& s) { s.pucks[0].last_kicker = 0; }) != base_hash);
}

TEST_CASE("restore refuses a state of another shape") {
    Match m(test::small_map(), 1);
    MatchState s = m.save();
    s.pucks.push_back(s.pucks[0]);
    CHECK_THROWS_AS(m.restore(s), std::invalid_argument);
    s = m.save();
    s.players[0].disk.position.x = std::nan("");
    CHECK_THROWS_AS(m.restore(s), std::invalid_argument);
}

TEST_CASE("restore refuses a state outside the physics domain and leaves the match as it was") {
    Match m(test::small_map(), 1);
    m.join(0, "ana");
    const auto before = m.state_hash();
    MatchState s = m.save();
    s.tick += 5;                          // restored before the disks, if it were
    s.players[0].disk.position.x += 1.0;  // restored before the next slot
    s.players[1].disk.position.x = 3.5e38;
    CHECK_THROWS_WITH_AS(m.restore(s), "restore: a player outside the physics domain",
                         std::invalid_argument);
    CHECK(m.state_hash() == before);
    s = m.save();
    s.tick += 5;
    s.pucks[0].disk.velocity.y = 1e300;
    CHECK_THROWS_WITH_AS(m.restore(s), "restore: a puck outside the physics domain",
                         std::invalid_argument);
    CHECK(m.state_hash() == before);
}
