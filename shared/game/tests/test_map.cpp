// Map validation (map.hpp): every refusal names its field.
#include "carom/game/map.hpp"

#include <doctest/doctest.h>

#include <limits>

#include "test_support.hpp"

using namespace carom::game;

TEST_CASE("The test map is playable") {
    CHECK(validate(test::small_map()) == "");
    CHECK(validate(test::small_map(4)) == "");
}

TEST_CASE("The largest team and puck counts a map may ask for are accepted") {
    CHECK(validate(test::small_map(16)) == "");
    Map m = test::small_map();
    m.puck_spawns.assign(16, {30.0, 15.0});
    CHECK(validate(m) == "");
}

TEST_CASE("Bad maps are refused with the field and the reason") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    struct Case {
        const char* expected_prefix;
        void (*spoil)(Map&);
    };
    const Case cases[] = {
        {"name:", [](Map& m) { m.name.clear(); }},
        {"size:", [](Map& m) { m.size.x = 0.0; }},
        {"team_size:", [](Map& m) { m.team_size = 0; }},
        {"match_seconds:", [](Map& m) { m.match_seconds = 0; }},
        {"boxes[1].half_extents:", [](Map& m) { m.boxes[1].half_extents.x = -1.0; }},
        {"boxes[0].axis:", [](Map& m) { m.boxes[0].axis = {0.0, 0.0}; }},
        {"segments[0].b:", [](Map& m) { m.segments.push_back({{1.0, 1.0}, {1.0, 1.0}}); }},
        {"goals:", [](Map& m) { m.goals.pop_back(); }},
        {"goals:", [](Map& m) { m.goals[1].defender = Team::left; }},
        {"goals[0].post_b:", [](Map& m) { m.goals[0].post_b = m.goals[0].post_a; }},
        {"spawns: team right", [](Map& m) { m.spawns.pop_back(); }},
        {"puck_spawns:", [](Map& m) { m.puck_spawns.clear(); }},
        {"tuning.player_radius:", [](Map& m) { m.tuning.player_radius = 0.0; }},
        {"tuning.puck_drag:", [](Map& m) { m.tuning.puck_drag = 100.0; }},
        {"tuning.wall_restitution:", [](Map& m) { m.tuning.wall_restitution = 1.5; }},
        {"team_size: must be in [1, 16]", [](Map& m) { m = test::small_map(17); }},
        {"puck_spawns: need between 1 and 16",
         [](Map& m) { m.puck_spawns.assign(17, {30.0, 15.0}); }},
        // From (0, 10) to (60, 20): the line runs through the centre (30, 15).
        {"goals[0].posts: the goal line passes through the field centre",
         [](Map& m) { m.goals[0].post_b = {60.0, 20.0}; }},
        {"goals[1].posts: the goal line passes through the field centre",
         [](Map& m) { m.goals[1].post_a = {0.0, 10.0}; }},
        {"spawns[1].position: must be finite",
         [](Map& m) { m.spawns[1].position.y = std::numeric_limits<double>::infinity(); }},
        {"segments[0].a/b: must be finite", [](Map& m) {
             m.segments.push_back({{1.0, 1.0}, {std::numeric_limits<double>::quiet_NaN(), 2.0}});
         }},
        {"segments[0].a/b: must be finite", [](Map& m) {
             m.segments.push_back({{-std::numeric_limits<double>::infinity(), 1.0}, {1.0, 2.0}});
         }},
        {"puck_spawns[0].must be finite",
         [](Map& m) { m.puck_spawns[0].x = std::numeric_limits<double>::quiet_NaN(); }},
    };
    for (const Case& c : cases) {
        Map m = test::small_map();
        c.spoil(m);
        const std::string reason = validate(m);
        CAPTURE(reason);
        CHECK(reason.rfind(c.expected_prefix, 0) == 0);
    }
    Map m = test::small_map();
    m.boxes[0].center.x = nan;
    CHECK(validate(m) == "boxes[0].center: must be finite");
}
