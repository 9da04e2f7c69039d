// Map validation (map.hpp): every refusal names its field.
#include "carom/game/map.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "test_support.hpp"

using namespace carom::game;

namespace {

// What validate() says: empty when the map is playable, else its reason.
std::string refusal(const Map& map) {
    const carom::Status valid = validate(map);
    return valid ? std::string() : valid.error().message;
}

}  // namespace

TEST_CASE("The test map is playable") {
    CHECK(refusal(test::small_map()) == "");
    CHECK(refusal(test::small_map(4)) == "");
}

TEST_CASE("The largest team and puck counts a map may ask for are accepted") {
    CHECK(refusal(test::small_map(16)) == "");
    Map m = test::small_map();
    m.puck_spawns.clear();
    for (int i = 0; i < 16; ++i)  // 3 apart, pucks have radius 1.25
        m.puck_spawns.push_back({25.5 + 3.0 * (i % 4), 10.5 + 3.0 * (i / 4)});
    CHECK(refusal(m) == "");
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
        // Flat: the physics takes no such box, so the map check refuses it first.
        {"boxes[1].half_extents:", [](Map& m) { m.boxes[1].half_extents.y = 0.0; }},
        {"boxes[0].axis:",
         [](Map& m) {
             m.boxes[0].axis = {0.0, 0.0};
         }},
        {"segments[0].b:",
         [](Map& m) {
             m.segments.push_back({{1.0, 1.0}, {1.0, 1.0}});
         }},
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
         [](Map& m) {
             m.puck_spawns.assign(17, {30.0, 15.0});
         }},
        // From (0, 10) to (60, 20): the line runs through the centre (30, 15).
        {"goals[0].posts: the goal line passes through the field centre",
         [](Map& m) {
             m.goals[0].post_b = {60.0, 20.0};
         }},
        {"goals[1].posts: the goal line passes through the field centre",
         [](Map& m) {
             m.goals[1].post_a = {0.0, 10.0};
         }},
        {"spawns[1].position: must be finite",
         [](Map& m) { m.spawns[1].position.y = std::numeric_limits<double>::infinity(); }},
        {"segments[0].a/b: must be finite",
         [](Map& m) {
             m.segments.push_back({{1.0, 1.0}, {std::numeric_limits<double>::quiet_NaN(), 2.0}});
         }},
        {"segments[0].a/b: must be finite",
         [](Map& m) {
             m.segments.push_back({{-std::numeric_limits<double>::infinity(), 1.0}, {1.0, 2.0}});
         }},
        {"puck_spawns[0].must be finite",
         [](Map& m) { m.puck_spawns[0].x = std::numeric_limits<double>::quiet_NaN(); }},
    };
    for (const Case& c : cases) {
        Map m = test::small_map();
        c.spoil(m);
        const std::string reason = refusal(m);
        CAPTURE(reason);
        CHECK(reason.rfind(c.expected_prefix, 0) == 0);
    }
    Map m = test::small_map();
    m.boxes[0].center.x = nan;
    CHECK(refusal(m) == "boxes[0].center: must be finite");
}

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE(
    "Every tuning value is accepted at its limits and refused just beyond, naming the range") {
    struct Bound {
        const char* field;
        double Tuning::*member;
        double lo, hi;
    };
    using namespace limits;
    const Bound bounds[] = {
        {"tuning.player_radius", &Tuning::player_radius, kRadiusMin, kRadiusMax},
        {"tuning.puck_radius", &Tuning::puck_radius, kRadiusMin, kRadiusMax},
        {"tuning.player_mass", &Tuning::player_mass, kMassMin, kMassMax},
        {"tuning.puck_mass", &Tuning::puck_mass, kMassMin, kMassMax},
        {"tuning.player_acceleration", &Tuning::player_acceleration, 0.0, kAccelerationMax},
        {"tuning.player_max_speed", &Tuning::player_max_speed, kSpeedMin, kSpeedMax},
        {"tuning.kick_speed", &Tuning::kick_speed, 0.0, kKickSpeedMax},
        {"tuning.kick_reach", &Tuning::kick_reach, 0.0, kKickReachMax},
        {"tuning.player_drag", &Tuning::player_drag, 0.0, kDragMax},
        {"tuning.puck_drag", &Tuning::puck_drag, 0.0, kDragMax},
        {"tuning.wall_restitution", &Tuning::wall_restitution, 0.0, 1.0},
        {"tuning.player_restitution", &Tuning::player_restitution, 0.0, 1.0},
        {"tuning.puck_restitution", &Tuning::puck_restitution, 0.0, 1.0},
    };
    for (const Bound& b : bounds) {
        CAPTURE(b.field);
        for (const double v : {b.lo, b.hi}) {
            Map m = test::small_map();
            m.tuning.*b.member = v;
            // A radius at its limit may not fit this small field: then the
            // refusal is the placement's, not the range's.
            const std::string e = refusal(m);
            CAPTURE(e);
            CHECK_FALSE(starts_with(e, b.field));
            if (b.member != &Tuning::player_radius && b.member != &Tuning::puck_radius)
                CHECK(e.empty());
        }
        for (const double v : {std::nextafter(b.lo, -1e300), std::nextafter(b.hi, 1e300), 1e50,
                               std::numeric_limits<double>::quiet_NaN()}) {
            Map m = test::small_map();
            m.tuning.*b.member = v;
            const std::string e = refusal(m);
            CAPTURE(e);
            CHECK(starts_with(e, std::string(b.field) + ": "));
            CHECK(e.find("is outside [") != std::string::npos);
        }
    }
    Map m = test::small_map();
    m.tuning.kick_cooldown_ticks = kKickCooldownTicksMax;
    CHECK(refusal(m).empty());
    m.tuning.kick_cooldown_ticks = kKickCooldownTicksMax + 1;
    CHECK(refusal(m) == "tuning.kick_cooldown_ticks: 3601 is outside [0, 3600]");
    m = test::small_map();
    m.tuning.kick_speed = 1e50;
    CHECK(refusal(m) == "tuning.kick_speed: 1.0000000000000001e+50 is outside [0, 2000] units/s");
}

TEST_CASE("Names, sizes, counts and coordinates are accepted at their limits and refused beyond") {
    using namespace limits;
    Map m = test::small_map();
    m.name = std::string(kNameBytes, '~');
    CHECK(refusal(m).empty());
    m.name += 'x';
    CHECK(refusal(m) == "name: 65 characters, must be 1 to 64");
    m.name = "ok\x1b[2Jgone";
    CHECK(refusal(m) == "name: character 2 (byte 27) is not printable ASCII (0x20..0x7E)");
    m.name = std::string("caf\xc3\xa9");
    CHECK(starts_with(refusal(m), "name: character 3"));
    m.name = " !~";
    CHECK(refusal(m).empty());

    m = test::small_map();
    m.size = {kSizeMax, kSizeMax};
    // On a field this large the goal check's grid has 4-unit cells, too coarse
    // for this map's 10-wide goal mouths: the size itself is accepted.
    CHECK_FALSE(starts_with(refusal(m), "size"));
    CHECK(starts_with(refusal(m), "goals[0]: unreachable"));
    m.size.x = std::nextafter(kSizeMax, 1e300);
    CHECK(starts_with(refusal(m), "size: width: "));
    m.size = {60.0, 30.0};
    m.size.y = std::nextafter(kSizeMin, 0.0);
    CHECK(starts_with(refusal(m), "size: height: "));

    m = test::small_map();
    m.score_limit = kScoreLimitMax;
    CHECK(refusal(m).empty());
    m.score_limit = kScoreLimitMax + 1;
    CHECK(starts_with(refusal(m), "score_limit: 1001"));

    const Box far{{-kCoordinateMax + 1.0, -kCoordinateMax + 1.0}, {1.0, 1.0}};
    m = test::small_map();
    m.boxes.resize(kBoxesMax, far);
    CHECK(refusal(m).empty());
    m.boxes.push_back(far);
    CHECK(refusal(m) == "boxes: 1025, at most 1024");
    m = test::small_map();
    const Segment far_segment{{-kCoordinateMax, -kCoordinateMax}, {-kCoordinateMax, 0.0}};
    m.segments.resize(kSegmentsMax, far_segment);
    CHECK(refusal(m).empty());
    m.segments.push_back(far_segment);
    CHECK(refusal(m) == "segments: 1025, at most 1024");
    m = test::small_map();
    m.spawns.clear();
    for (const double y : {3.0, 7.0, 11.0, 19.0, 23.0, 27.0})  // 4 apart, clear of the puck
        for (double x = 4.0; x <= 56.0; x += 4.0)
            m.spawns.push_back({m.spawns.size() % 2 ? Team::left : Team::right, {x, y}});
    m.spawns.resize(kSpawnsMax);
    CHECK(refusal(m).empty());
    m.spawns.push_back({Team::left, {30.0, 5.0}});
    CHECK(refusal(m) == "spawns: 65, at most 64");

    m = test::small_map();
    m.segments.push_back({{kCoordinateMax, 0.0}, {kCoordinateMax, -kCoordinateMax}});
    CHECK(refusal(m).empty());
    m.segments.back().b.y = std::nextafter(-kCoordinateMax, -1e300);
    CHECK(starts_with(refusal(m), "segments[0].b: "));
    m = test::small_map();
    m.boxes[0].half_extents.x = std::nextafter(kCoordinateMax, 1e300);
    CHECK(starts_with(refusal(m), "boxes[0].half_extents: "));
    m = test::small_map();
    m.boxes[0].axis = {kAxisLengthMin, 0.0};
    CHECK(refusal(m).empty());
    m.boxes[0].axis = {std::nextafter(kAxisLengthMin, 0.0), 0.0};
    CHECK(starts_with(refusal(m), "boxes[0].axis: shorter than"));
}

TEST_CASE("Spawns and pucks must start on the field and clear of every wall") {
    Map m = test::small_map();
    // Spawn 0 at (15, 5), player radius 2: touching the field's edge or a wall is allowed.
    m.spawns[0].position = {15.0, 2.0};
    CHECK(refusal(m).empty());
    m.spawns[0].position = {15.0, std::nextafter(2.0, 0.0)};
    CHECK(starts_with(refusal(m), "spawns[0].position: (15, 1.9999999999999998) puts a player"));
    m = test::small_map();
    m.segments.push_back({{10.0, 7.0}, {20.0, 7.0}});  // 2 above spawn 0: touching
    CHECK(refusal(m).empty());
    m.segments.back() = {{10.0, 6.5}, {20.0, 6.5}};
    CHECK(refusal(m) == "spawns[0].position: a player there overlaps segments[0]");
    m = test::small_map();
    m.boxes.push_back({{15.0, 5.0}, {0.5, 0.5}});  // a spawn inside a wall
    CHECK(refusal(m) == "spawns[0].position: a player there overlaps boxes[12]");
    m = test::small_map();
    m.boxes.push_back({{30.0, 17.0}, {1.0, 0.5}, {0.0, 1.0}});  // rotated, over the puck
    CHECK(refusal(m) == "puck_spawns[0]: a puck there overlaps boxes[12]");
    m = test::small_map();
    m.puck_spawns[0] = {30.0, 29.0};
    CHECK(starts_with(refusal(m), "puck_spawns[0]: (30, 29) puts a puck of radius 1.25 outside"));
}

TEST_CASE("Spawns and pucks must not start overlapping each other") {
    Map m = test::small_map(2);  // left spawns (15, 5) and (15, 9), touching: radius 2
    CHECK(refusal(m).empty());
    m.spawns[2].position = {15.0, 9.0};  // the second left spawn, 4 from the first: touching
    CHECK(refusal(m).empty());
    m.spawns[2].position = {15.0, 8.5};
    CHECK(refusal(m) ==
          "spawns[2].position: overlaps spawns[0].position (centres 3.5 apart, radii 2 + 2)");
    m = test::small_map();
    m.puck_spawns.push_back({31.0, 15.0});
    CHECK(refusal(m) ==
          "puck_spawns[1]: overlaps puck_spawns[0] (centres 1 apart, radii 1.25 + 1.25)");
    m = test::small_map();
    m.puck_spawns[0] = {16.0, 7.0};  // on spawn 0 at (15, 5)
    CHECK(starts_with(refusal(m), "puck_spawns[0]: overlaps spawns[0].position"));
}

TEST_CASE("Both goals must be reachable by a puck from every puck spawn") {
    // The small map's goals: a mouth 10 wide at x = 0 and x = 60, pockets 12 deep.
    Map m = test::small_map();
    CHECK(refusal(m).empty());
    SUBCASE("a wall across a goal mouth") {
        m.boxes.push_back({{0.5, 15.0}, {0.5, 5.0}});
        CHECK(refusal(m) ==
              "goals[0]: unreachable: a puck of radius 1.25 cannot move from puck_spawns[0] to "
              "behind its goal line between the posts (checked on a 0.625-unit grid)");
    }
    SUBCASE("a wall around the puck") {
        m.segments = {{{25.0, 10.0}, {35.0, 10.0}},
                      {{35.0, 10.0}, {35.0, 20.0}},
                      {{35.0, 20.0}, {25.0, 20.0}},
                      {{25.0, 20.0}, {25.0, 10.0}}};
        CHECK(starts_with(refusal(m), "goals[0]: unreachable"));
        // With a gap wider than the puck (2.5) and a cell, it gets out again.
        m.segments[1] = {{35.0, 10.0}, {35.0, 13.0}};
        m.segments.push_back({{35.0, 17.0}, {35.0, 20.0}});
        CHECK(refusal(m).empty());
    }
    SUBCASE("a gap narrower than the puck") {
        m.boxes.push_back({{40.0, 7.5}, {0.5, 7.5}});   // from the bottom wall up to y = 15
        m.boxes.push_back({{40.0, 24.5}, {0.5, 5.5}});  // from y = 19 to the top wall: gap 4
        CHECK(refusal(m).empty());
        m.boxes.back() = {{40.0, 23.0}, {0.5, 7.0}};  // gap 1, the puck is 2.5 wide
        CHECK(starts_with(refusal(m), "goals[1]: unreachable"));
    }
    SUBCASE("a wall just behind the goal line leaves no room for a puck") {
        m.boxes.push_back({{-1.5, 15.0}, {0.25, 6.0}});  // inside the pocket, 1.25..1.75 behind
        CHECK(starts_with(refusal(m), "goals[0]: unreachable"));
    }
}

TEST_CASE("The goal check's time is bounded on the largest maps") {
    // 1024 long diagonal segments across a 4096-wide field: the grid stays at 256 cells a side.
    Map m = test::small_map();
    m.size = {4096.0, 4096.0};
    m.goals = {{Team::left, {0.0, 2000.0}, {0.0, 2100.0}},
               {Team::right, {4096.0, 2000.0}, {4096.0, 2100.0}}};
    m.puck_spawns = {{2048.0, 2048.0}};
    m.boxes.clear();
    for (std::size_t i = 0; m.segments.size() < limits::kSegmentsMax; ++i) {
        const double y = 100.0 + 3.0 * static_cast<double>(i);
        m.segments.push_back({{-4000.0, y - 4000.0}, {4000.0, y + 4000.0}});
    }
    const std::string e = refusal(m);
    CHECK(e.find("goals[") == 0);  // the diagonal walls cut the field: refused, quickly
}
