// The map's movable discs (HaxBall's discs with invMass > 0): pushed by what
// touches them, slowed by their own drag, reset at kick-off when the map
// says, saved, restored and hashed like every other disk.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "carom/game/match.hpp"
#include "test_support.hpp"

using namespace carom::game;
using carom::physics::Vec2;

namespace {

Map map_with_disc(Vec2 position, Vec2 velocity = {}, double drag = 0.0) {
    Map m = test::small_map();
    Disc d;
    d.position = position;
    d.velocity = velocity;
    d.radius = 2.0;
    d.mass = 1.0;
    d.restitution = 1.0;
    d.drag = drag;
    m.discs.push_back(d);
    return m;
}

std::vector<Input> idle(const Match& m) {
    return std::vector<Input>(m.slot_count());
}

}  // namespace

TEST_CASE("A disc starts with its velocity and slows by its own drag") {
    Match m(map_with_disc({40.0, 15.0}, {6.0, 0.0}, 1.5), 1);
    REQUIRE(m.disc_count() == 1);
    CHECK(m.disc_disk(0).position == Vec2{40.0, 15.0});
    m.step(idle(m));
    // The drag applies before the move, as the pucks' does: v (1 - drag / 60).
    const double v = 6.0 * (1.0 - 1.5 / 60.0);
    CHECK(m.disc_disk(0).velocity.x == doctest::Approx(v));
    CHECK(m.disc_disk(0).position.x == doctest::Approx(40.0 + v / 60.0));
    CHECK(m.disc_disk(0).velocity.y == 0.0);
}

TEST_CASE("A puck pushes a disc, which is neither kicked nor scores") {
    Match m(map_with_disc({40.0, 15.0}), 1);
    MatchState s = m.save();
    s.pucks[0].disk = {{30.0, 15.0}, {60.0, 0.0}};
    m.restore(s);
    for (int t = 0; t < 15; ++t)
        m.step(idle(m));
    // Equal masses, restitution 1 against the puck's: the disc took the puck's momentum.
    CHECK(m.disc_disk(0).velocity.x > 20.0);
    CHECK(m.puck_disk(0).velocity.x < m.disc_disk(0).velocity.x);

    // Through the right goal's mouth: no goal, the match plays on.
    s = m.save();
    s.discs[0] = {{55.0, 15.0}, {120.0, 0.0}};
    m.restore(s);
    for (int t = 0; t < 5; ++t)
        CHECK(m.step(idle(m)).empty());
    CHECK(m.score(Team::left) == 0);
    CHECK(m.disc_disk(0).position.x > 60.0);
}

TEST_CASE("A disc meets only what its collision groups say") {
    Map map = map_with_disc({40.0, 15.0});
    map.discs[0].collision.mask = groups::kWall | groups::kRed | groups::kBlue;  // not the ball
    Match m(map, 1);
    MatchState s = m.save();
    s.pucks[0].disk = {{30.0, 15.0}, {60.0, 0.0}};
    m.restore(s);
    for (int t = 0; t < 15; ++t)
        m.step(idle(m));
    CHECK(m.disc_disk(0).position == Vec2{40.0, 15.0});
    CHECK(m.puck_disk(0).position.x > 42.0);  // passed through
}

TEST_CASE("Kick-off returns the discs to their start only when the map says") {
    for (const bool resets : {false, true}) {
        CAPTURE(resets);
        Map map = map_with_disc({40.0, 25.0});
        map.kickoff_resets_discs = resets;
        Match m(map, 1);
        MatchState s = m.save();
        s.pucks[0].disk = {{5.0, 15.0}, {-120.0, 0.0}};  // into the left goal
        s.discs[0] = {{45.0, 25.0}, {0.0, 0.0}};
        m.restore(s);
        bool kicked_off = false;
        for (std::uint32_t t = 0; t < kGoalPauseTicks + 20 && !kicked_off; ++t) {
            for (const MatchEvent& e : m.step(idle(m)))
                kicked_off |= e.kind == MatchEvent::Kind::kickoff;
        }
        REQUIRE(kicked_off);
        CHECK(m.disc_disk(0).position == (resets ? Vec2{40.0, 25.0} : Vec2{45.0, 25.0}));
    }
}

TEST_CASE("Discs are saved, restored and hashed") {
    Match a(map_with_disc({40.0, 15.0}, {3.0, 1.0}), 9);
    for (int t = 0; t < 20; ++t)
        a.step(idle(a));
    const MatchState s = a.save();
    REQUIRE(s.discs.size() == 1);
    CHECK(s.discs[0].position == a.disc_disk(0).position);

    Match b(map_with_disc({40.0, 15.0}, {3.0, 1.0}), 9);
    b.restore(s);
    CHECK(b.state_hash() == a.state_hash());
    for (int t = 0; t < 60; ++t) {
        a.step(idle(a));
        b.step(idle(b));
    }
    CHECK(b.state_hash() == a.state_hash());

    MatchState moved = a.save();
    moved.discs[0].velocity.y += 1e-12;
    b.restore(moved);
    CHECK(b.state_hash() != a.state_hash());

    MatchState wrong = a.save();
    wrong.discs.clear();
    CHECK_THROWS_WITH_AS(b.restore(wrong), "restore: the state has 0 discs, the map 1",
                         std::invalid_argument);
    wrong = a.save();
    wrong.discs[0].velocity.x = 1e300;
    CHECK_THROWS_WITH_AS(b.restore(wrong), "restore: a disc outside the physics domain",
                         std::invalid_argument);
}

TEST_CASE("A disc is validated like a puck, by its own fields") {
    const auto refusal = [](void (*change)(Disc&)) {
        Map m = map_with_disc({40.0, 15.0});
        change(m.discs[0]);
        return std::string(validate(m).error().message);
    };
    CHECK(refusal([](Disc& d) { d.mass = 0.0; }).find("discs[0].mass: 0 is outside") == 0);
    CHECK(refusal([](Disc& d) { d.radius = 60.0; }).find("discs[0].radius: 60 is outside") == 0);
    CHECK(refusal([](Disc& d) { d.drag = -1.0; }).find("discs[0].drag: -1 is outside") == 0);
    CHECK(refusal([](Disc& d) {
              d.velocity = {2000.0, 0.0};
          }).find("discs[0].velocity: 2000 is outside [0, 1000]") == 0);
    CHECK(refusal([](Disc& d) {
              d.position = {59.0, 15.0};
          }).find("discs[0].position: (59, 15) puts a disc of radius 2 outside the field") == 0);
    CHECK(refusal([](Disc& d) {
              d.position = {15.0, 6.0};
          }).find("discs[0].position: overlaps spawns[0].position") == 0);
    // Unless nothing of the two meets the other: a disc only the ball moves
    // may sit on a player's spawn.
    Map apart = map_with_disc({15.0, 6.0});
    apart.discs[0].collision = {groups::kBall, groups::kBall | groups::kWall};
    CHECK(validate(apart).ok());
}
