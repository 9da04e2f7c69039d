// The importer of HaxBall's stadium files: each supported field on a small
// stadium written for it, each refusal naming its field, and a match played
// on the example stadiums (shared/stadium/stadiums/curves.hbs, bumpers.hbs).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "carom/game/match.hpp"
#include "carom/stadium/hbs.hpp"

namespace carom::stadium {
namespace {

using game::Vec2;
namespace groups = game::groups;

// A small stadium: a 300 x 200 field of planes, two goals, and `extra`
// members spliced in.
std::string stadium(const std::string& extra = "") {
    return std::string(R"({
  name: 'Test', width: 150, height: 100,
  goals: [ { p0: [-120, 20], p1: [-120, -20], team: 'red' },
           { p0: [120, -20], p1: [120, 20], team: 'blue' } ],
  planes: [ { normal: [0, 1], dist: -100 }, { normal: [0, -1], dist: -100 },
            { normal: [1, 0], dist: -150 }, { normal: [-1, 0], dist: -150 } ],
)") + (extra.find("spawnDistance") == std::string::npos ? "spawnDistance: 40," : "") +
           extra + "}";
}

Imported imported(const std::string& text, const ImportOptions& options = {}) {
    auto r = import_stadium(text, "test.hbs", options);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    return *std::move(r);
}

std::string refusal(const std::string& text) {
    auto r = import_stadium(text, "test.hbs");
    REQUIRE_FALSE(r.ok());
    return r.error().message;
}

bool near(Vec2 a, Vec2 b, double eps = 1e-9) {
    return std::abs(a.x - b.x) <= eps && std::abs(a.y - b.y) <= eps;
}

TEST_CASE("cot_half_degrees matches the library's tangent, from + - * / alone") {
    for (const double degrees : {1.0, 10.0, 45.0, 90.0, 120.0, 180.0, 270.0, 340.0, 359.0}) {
        const double expected = 1.0 / std::tan(degrees * M_PI / 360.0);
        CHECK(cot_half_degrees(degrees) == doctest::Approx(expected).epsilon(1e-13));
    }
    CHECK(std::abs(cot_half_degrees(180.0)) < 1e-15);
}

TEST_CASE("hbs_field_goals_planes_and_spawns") {
    const Imported s = imported(stadium());
    const game::Map& m = s.map;
    CHECK(m.name == "Test");
    CHECK(m.size == (Vec2{300.0, 200.0}));
    REQUIRE(m.goals.size() == 2);
    CHECK(m.goals[0].defender == game::Team::left);
    CHECK(near(m.goals[0].post_a, {30.0, 120.0}));
    CHECK(m.goals[1].defender == game::Team::right);
    REQUIRE(m.walls.size() == 4);
    // dot(p, n) >= dist in the file is dot(q, n) >= dist + dot(half, n) on the field.
    CHECK(m.walls[0].shape == game::Wall::Shape::plane);
    CHECK(m.walls[0].offset == doctest::Approx(0.0));
    CHECK(m.walls[1].offset == doctest::Approx(-200.0));
    CHECK(m.walls[2].offset == doctest::Approx(0.0));
    CHECK(m.walls[3].offset == doctest::Approx(-300.0));
    // Three a side by default, lined up at spawnDistance from the centre.
    CHECK(m.team_size == 3);
    REQUIRE(m.spawns.size() == 6);
    CHECK(near(m.spawns[0].position, {110.0, 100.0}));
    CHECK(near(m.spawns[1].position, {110.0, 145.0}));
    CHECK(near(m.spawns[2].position, {110.0, 55.0}));
    CHECK(near(m.spawns[3].position, {190.0, 100.0}));
    CHECK(m.puck_spawns == std::vector<Vec2>{{150.0, 100.0}});
    CHECK_FALSE(m.kickoff_nudge);
    // Spawn points win over spawnDistance, and set the team size.
    const Imported points = imported(
        stadium("redSpawnPoints: [[-30, 0], [-30, 40]], blueSpawnPoints: [[30, 0], [30, 40]],"));
    CHECK(points.map.team_size == 2);
    CHECK(near(points.map.spawns[1].position, {120.0, 140.0}));
    CHECK(near(points.map.spawns[2].position, {180.0, 100.0}));
}

TEST_CASE("hbs_curved_segments_become_arcs_with_the_centre_left_of_their_chord") {
    const std::string verts = "vertexes: [ { x: -20, y: 60 }, { x: 20, y: 60 } ],";
    SUBCASE("curve in degrees") {
        const Imported s = imported(stadium(verts + "segments: [ { v0: 0, v1: 1, curve: 90 } ],"));
        const game::Wall& w = s.map.walls.front();
        CHECK(w.shape == game::Wall::Shape::arc);
        CHECK(near(w.a, {130.0, 160.0}));
        CHECK(near(w.b, {170.0, 160.0}));
        CHECK(near(w.center, {150.0, 180.0}, 1e-12));
    }
    SUBCASE("a negative curve runs the other way, and its bias with it") {
        const Imported s =
            imported(stadium(verts + "segments: [ { v0: 0, v1: 1, curve: -90, bias: 3 } ],"));
        const game::Wall& w = s.map.walls.front();
        CHECK(near(w.a, {170.0, 160.0}));
        CHECK(near(w.center, {150.0, 140.0}, 1e-12));
        CHECK(w.bias == -3.0);
    }
    SUBCASE("curveF is the cotangent of half the angle, used as it is") {
        const Imported s =
            imported(stadium(verts + "segments: [ { v0: 0, v1: 1, curveF: 0.5 } ],"));
        CHECK(near(s.map.walls.front().center, {150.0, 170.0}, 1e-12));
    }
    SUBCASE("straight, with bCoef, bias, groups, colour and vis") {
        const Imported s = imported(stadium(
            "vertexes: [ { x: -20, y: 60, bCoef: 0.3, cMask: ['ball'], cGroup: ['wall', 'c1'] }, "
            "{ x: 20, y: 60, bCoef: 0.3, cMask: ['ball'], cGroup: ['wall', 'c1'] } ],"
            "segments: [ { v0: 0, v1: 1, bCoef: 0.3, bias: -2, cMask: ['ball'], cGroup: ['wall', "
            "'c1'], color: 'FF8000', vis: false } ],"));
        const game::Wall& w = s.map.walls.front();
        CHECK(w.shape == game::Wall::Shape::segment);
        CHECK(w.restitution == 0.3);
        CHECK(w.bias == -2.0);
        CHECK(w.collision.mask == groups::kBall);
        CHECK(w.collision.group == (groups::kWall | groups::kC1));
        CHECK(w.color == 0xFF8000u);
        CHECK_FALSE(w.visible);
        CHECK(s.map.posts.empty());  // its vertexes agree with it: no point walls
    }
}

TEST_CASE("hbs_traits_give_defaults_that_an_object_overrides") {
    const Imported s = imported(stadium(
        "traits: { line: { bCoef: 0.25, cMask: ['ball'] } },"
        "vertexes: [ { x: -20, y: 60, trait: 'line' }, { x: 20, y: 60, trait: 'line' } ],"
        "segments: [ { v0: 0, v1: 1, trait: 'line' }, { v0: 1, v1: 0, trait: 'line', bCoef: 0.75 "
        "} ],"));
    CHECK(s.map.walls[0].restitution == 0.25);
    CHECK(s.map.walls[0].collision.mask == groups::kBall);
    CHECK(s.map.walls[1].restitution == 0.75);
}

TEST_CASE("hbs_discs_with_invMass_0_are_posts_and_lone_vertexes_point_walls") {
    const Imported s = imported(stadium(
        "vertexes: [ { x: 0, y: 40 } ],"
        "discs: [ { pos: [90, 20], radius: 6, bCoef: 0.4, cGroup: ['wall'], color: '00FF00' } ],"));
    REQUIRE(s.map.posts.size() == 2);
    CHECK(s.map.posts[0].radius == game::limits::kRadiusMin);  // the lone vertex
    CHECK(near(s.map.posts[1].position, {240.0, 120.0}));
    CHECK(s.map.posts[1].radius == 6.0);
    CHECK(s.map.posts[1].restitution == 0.4);
    CHECK(s.map.posts[1].collision.group == groups::kWall);
    CHECK(s.map.posts[1].color == 0x00FF00u);
}

TEST_CASE("hbs_a_vertex_that_collides_with_nothing_makes_no_post") {
    // An empty cMask or cGroup: nothing meets the vertex, so no point wall.
    const Imported s =
        imported(stadium("vertexes: [ { x: 0, y: 40, cMask: [] }, { x: 0, y: -40, cGroup: [] },"
                         "            { x: 0, y: 60 } ],"));
    REQUIRE(s.map.posts.size() == 1);
    CHECK(near(s.map.posts[0].position, {150.0, 160.0}));
}

TEST_CASE("hbs_discs_with_invMass_above_0_are_movable_discs") {
    const Imported s = imported(stadium(
        "kickOffReset: 'full',"
        "discs: [ { pos: [90, 20], speed: [1, -0.5], radius: 6, invMass: 0.5, damping: 0.98, "
        "bCoef: 0.7, cGroup: ['c1'], cMask: ['wall', 'ball'], color: '00FF00' } ],"));
    CHECK(s.map.posts.empty());
    REQUIRE(s.map.discs.size() == 1);
    const game::Disc& d = s.map.discs[0];
    CHECK(near(d.position, {240.0, 120.0}));
    CHECK(near(d.velocity, {60.0, -30.0}));  // per tick in HaxBall, per second in carom
    CHECK(d.radius == 6.0);
    CHECK(d.mass == 2.0);
    CHECK(d.drag == doctest::Approx(0.02 * 60.0));
    CHECK(d.restitution == 0.7);
    CHECK(d.collision.group == groups::kC1);
    CHECK(d.collision.mask == (groups::kWall | groups::kBall));
    CHECK(d.color == 0x00FF00u);
    CHECK(s.map.kickoff_resets_discs);
    // HaxBall's defaults: groups "all", and "partial" kick-offs leave the discs be.
    const Imported plain = imported(stadium("discs: [ { pos: [90, 20], invMass: 1 } ],"));
    REQUIRE(plain.map.discs.size() == 1);
    CHECK(plain.map.discs[0].collision.group == groups::kAll);
    CHECK(plain.map.discs[0].collision.mask == groups::kAll);
    CHECK(plain.map.discs[0].radius == 10.0);
    CHECK_FALSE(plain.map.kickoff_resets_discs);
}

TEST_CASE("hbs_player_and_ball_physics_map_onto_the_tuning") {
    const Imported s = imported(stadium(
        "playerPhysics: { radius: 12, invMass: 0.25, bCoef: 0.4, damping: 0.95, acceleration: "
        "0.12, kickingAcceleration: 0.08, kickingDamping: 0.97, kickStrength: 6 },"
        "ballPhysics: { radius: 8, invMass: 2, bCoef: 0.6, damping: 0.98, cMask: ['all'], "
        "cGroup: ['ball', 'c0'] },"));
    const game::Tuning& t = s.map.tuning;
    CHECK(t.player_radius == 12.0);
    CHECK(t.player_mass == 4.0);
    CHECK(t.player_restitution == 0.4);
    CHECK(t.player_acceleration == doctest::Approx(0.12 * 3600.0));
    CHECK(t.kicking_acceleration == doctest::Approx(0.08 * 3600.0));
    CHECK(t.player_drag == doctest::Approx(0.05 * 60.0));
    CHECK(t.kicking_drag == doctest::Approx(0.03 * 60.0));
    CHECK(t.player_max_speed == doctest::Approx(std::max(0.12 / 0.05, 0.08 / 0.03) * 60.0));
    CHECK(t.kick_speed == doctest::Approx(360.0));
    CHECK(t.kick_reach == 4.0);
    CHECK(t.puck_radius == 8.0);
    CHECK(t.puck_mass == 0.5);
    CHECK(t.puck_restitution == 0.6);
    CHECK(t.puck_drag == doctest::Approx(0.02 * 60.0));
    CHECK(s.map.puck_collision.group ==
          (groups::kBall | groups::kC0 | groups::kKick | groups::kScore));
    // disc0: the first disc is the ball, not a post.
    const Imported disc0 = imported(stadium(
        "ballPhysics: 'disc0', discs: [ { pos: [0, 10], radius: 7, invMass: 1 }, { pos: [90, 20] "
        "} ],"));
    CHECK(disc0.map.tuning.puck_radius == 7.0);
    CHECK(near(disc0.map.puck_spawns[0], {150.0, 110.0}));
    CHECK(disc0.map.posts.size() == 1);
}

TEST_CASE("hbs_view_and_room_settings_are_accepted_and_noted") {
    const Imported s = imported(
        stadium("cameraWidth: 300, cameraHeight: 200, maxViewWidth: 0, cameraFollow: 'ball', "
                "canBeStored: false, kickOffReset: 'full', bg: { type: 'grass' }, joints: [],"));
    CHECK(s.notes.size() == 6);
}

TEST_CASE("hbs_keys_outside_the_format_are_ignored_as_HaxBall_does_and_noted") {
    const Imported s = imported(stadium(
        "foo: 1,"
        "vertexes: [ { x: -20, y: 60, pos: [1, 2], curve: 0 }, { x: 20, y: 60, pos: [3, 4] }, "
        "{ x: 20, y: 60 } ],"
        "segments: [ { v0: 0, v1: 1, x: 5 }, { v0: 1, v1: 2 } ],"));
    REQUIRE(s.map.walls.size() == 5);  // the four planes and the first segment
    const auto noted = [&](const std::string& text) {
        return std::find(s.notes.begin(), s.notes.end(), text) != s.notes.end();
    };
    const std::string why = ": not a field of the format; ignored, as HaxBall ignores it";
    CHECK(noted("foo" + why));
    CHECK(noted("vertexes[0].pos" + why + " (2 times, as vertexes[].pos)"));
    CHECK(noted("vertexes[0].curve" + why));
    CHECK(noted("segments[0].x" + why));
    CHECK(noted("segments[1]: a segment of zero length (its ends coincide): passed over"));
    CHECK(s.notes.size() == 6);  // and vertex 2, which ends no segment, a point wall

    // A flag's name outside the list gives no bit, and is noted too, with
    // the trait it came from.
    const Imported ghost =
        imported(stadium("traits: { line: { cMask: [''] } },"
                         "discs: [ { pos: [60, 60], cMask: ['ghost', 'ball'] }, { pos: [60, -60], "
                         "trait: 'line' } ],"));
    REQUIRE(ghost.map.posts.size() == 2);
    CHECK(ghost.map.posts[0].collision.mask == groups::kBall);
    CHECK(ghost.map.posts[1].collision.mask == 0);
    const std::string flags =
        ": no bit (the flags are ball, red, blue, redKO, blueKO, wall, all, "
        "kick, score, c0-c3)";
    CHECK(ghost.notes ==
          std::vector<std::string>{
              "discs[0].cMask: unknown collision flag \"ghost\"" + flags,
              "discs[1].cMask (from its trait): unknown collision flag \"\"" + flags});
}

TEST_CASE("hbs_a_problem_of_the_carom_map_names_the_stadium_object_behind_it") {
    // The second red spawn point overlaps the first; the ball spawns in a post.
    CHECK(refusal(stadium("redSpawnPoints: [ [-100, 0], [-100, 10] ], blueSpawnPoints: [ [100, "
                          "0], [100, 40] ],"))
              .find("(spawns[1] is the stadium's redSpawnPoints[1]; spawns[0] is the stadium's "
                    "redSpawnPoints[0])") != std::string::npos);
    CHECK(refusal(stadium("discs: [ { pos: [60, 80], invMass: 1 }, { pos: [0, 0], radius: 3 } ],"))
              .find("(puck_spawns[0] is the stadium's ballPhysics; posts[0] is the stadium's "
                    "discs[1])") != std::string::npos);
    CHECK(refusal(stadium("discs: [ { pos: [60, 80], invMass: 1 }, { pos: [0, 5], radius: 3, "
                          "invMass: 1 } ],"))
              .find("discs[1] is the stadium's discs[1]") != std::string::npos);
}

TEST_CASE("hbs_refuses_what_carom_cannot_play_naming_the_field") {
    CHECK(refusal(stadium("joints: [ { d0: 0, d1: 1 } ],")) ==
          "test.hbs: joints: carom has no joints between discs");
    CHECK(refusal(stadium("discs: [ { pos: [0, 0], invMass: 1, cGroup: ['c0', 'kick'] } ],")) ==
          "test.hbs: discs[0].cGroup: \"kick\" and \"score\": carom kicks and scores with the "
          "ball only");
    CHECK(refusal(stadium("discs: [ { pos: [0, 0], invMass: 1, gravity: [0, 0.05] } ],")) ==
          "test.hbs: discs[0].gravity: carom's discs feel no gravity");
    CHECK(refusal(stadium("discs: [ { pos: [0, 0], invMass: -1 } ],")) ==
          "test.hbs: discs[0].invMass: must be 0 (a post) or more");
    CHECK(refusal(stadium("discs: [ { pos: [40, 0], invMass: 1000 } ],"))
              .find("test.hbs: as a carom map: discs[0].mass: 0.001") == 0);
    CHECK(refusal(stadium("playerPhysics: { kickback: 1 },")) ==
          "test.hbs: playerPhysics.kickback: carom's kicks do not push back");
    CHECK(refusal(stadium("playerPhysics: { gravity: [0, 0.1] },")) ==
          "test.hbs: playerPhysics.gravity: carom's players feel no gravity");
    CHECK(refusal(stadium("ballPhysics: { gravity: [0, 0.1] },")) ==
          "test.hbs: ballPhysics.gravity: carom's ball starts at rest, with no gravity");
    CHECK(refusal(stadium("vertexes: [ { x: 0, y: 0 } ], segments: [ { v0: 0, v1: 3 } ],")) ==
          "test.hbs: segments[0].v1: must be the index of a vertex (0 to 1 exclusive)");
    CHECK(refusal(stadium("discs: [ { pos: [0, 0], trait: 'nope' } ],")) ==
          "test.hbs: discs[0].trait: no trait named \"nope\"");
    CHECK(refusal(R"({ name: 'x', width: 100, height: 50, goals: [] })") ==
          "test.hbs: goals: carom plays with exactly two goals, one per team");
    CHECK(refusal(stadium("kickOffReset: 'sometimes',")) ==
          "test.hbs: kickOffReset: must be \"partial\" or \"full\"");
    CHECK(refusal(stadium("playerPhysics: { cGroup: ['c0'] },")) ==
          "test.hbs: playerPhysics.cGroup: carom puts players in their team's group only (red or "
          "blue)");
    CHECK(refusal(stadium("discs: [ { pos: [0, 0], speed: [1, 0] } ],")) ==
          "test.hbs: discs[0].speed: a post (invMass 0) cannot move");
    CHECK(refusal(stadium("vertexes: [ { x: 0, y: 60 }, { x: 10, y: 60 } ], segments: [ { v0: 0, "
                          "v1: 1, curve: 400 } ],")) ==
          "test.hbs: segments[0].curve: must be within (-360, 360) degrees");
    CHECK(refusal(stadium("vertexes: [ { x: 0, y: 60 }, { x: 10, y: 60 } ], segments: [ { v0: 0, "
                          "v1: 1, vis: 1 } ],")) ==
          "test.hbs: segments[0].vis: must be true or false");
    CHECK(refusal(stadium("discs: [ { pos: [0, 0], color: 'blue' } ],")) ==
          "test.hbs: discs[0].color: must be RRGGBB");
    CHECK(refusal(stadium("ballPhysics: 'disc1',")) ==
          "test.hbs: ballPhysics: must be an object or \"disc0\"");
    CHECK(refusal(stadium("traits: { a: { trait: 'b' } },")) ==
          "test.hbs: traits.a.trait: traits do not nest");
    CHECK(refusal(stadium("playerPhysics: { invMass: 0 },")) ==
          "test.hbs: playerPhysics.invMass: players must be movable (> 0)");
    CHECK(refusal("{ width: 100, height: 50 }") == "test.hbs: name: a name is required");
    CHECK(refusal("{ name: 'x', height: 50 }") ==
          "test.hbs: width: must be a number above 0 (half the field's extent)");
    CHECK(refusal(R"({ name: 'x', width: 100, height: 50,
        goals: [ { p0: [-90, 20], p1: [-90, -20], team: 'green' }, { p0: [90, -20], p1: [90, 20],
                 team: 'blue' } ] })") == "test.hbs: goals[0].team: must be \"red\" or \"blue\"");
    // What parses as a stadium but not as a carom map: the map's own check.
    CHECK(refusal(stadium("spawnDistance: 300,")).find("test.hbs: as a carom map: spawns[0]") == 0);
    // The JSON5 itself, with its line and column.
    CHECK(refusal("{ name: 'x',\n  width: 01 }") ==
          "test.hbs: line 2, column 10: a leading zero (octal is not JSON5)");
}

// The example stadium, played: its curved walls, posts, planes and kick-off
// barriers in one match.
TEST_CASE("hbs_the_example_stadium_plays_a_match_with_kickoff_barriers") {
    auto loaded = load_stadium_file(CAROM_STADIUMS_DIR "/curves.hbs");
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
    const game::Map& map = loaded->map;
    std::size_t arcs = 0;
    for (const game::Wall& w : map.walls)
        arcs += w.shape == game::Wall::Shape::arc ? 1 : 0;
    CHECK(arcs == 8);  // four corners, two nets, two halves of the centre circle
    CHECK(map.posts.size() == 4);
    game::Match match(map, 7);
    for (game::Slot s = 0; s < match.slot_count(); ++s) {
        std::string name = "p";  // not "p" + ...: gcc 12 warns about that falsely (-Wrestrict)
        name += std::to_string(s);
        match.join(s, name);
    }
    // Red kicks off first: blue's players meet the blue barrier, red's none.
    const auto mask = [&](game::Slot s) { return match.player_disk(s).filter.mask; };
    CHECK((mask(0) & groups::kRedKickoff) == 0);
    CHECK((mask(map.team_size) & groups::kBlueKickoff) != 0);
    // A blue player driven at the centre circle stays outside it.
    std::vector<game::Input> inputs(match.slot_count());
    const game::Slot blue = map.team_size;
    inputs[blue] = game::Input::toward({-1.0, 0.0});  // west, towards the centre
    double closest = 1e9;
    for (int tick = 0; tick < 240; ++tick) {
        match.step(inputs);
        const Vec2 centre = map.size * 0.5;
        const Vec2 d = match.player_disk(blue).position - centre;
        closest = std::min(closest, std::sqrt(d.x * d.x + d.y * d.y));
    }
    CHECK(closest >= 80.0 + map.tuning.player_radius - 1e-6);
    CHECK((mask(blue) & groups::kBlueKickoff) != 0);
    // A red player walks up to the ball and kicks it: the barriers fall.
    inputs[blue] = game::Input::idle();
    for (int tick = 0; tick < 600 && (mask(blue) & groups::kBlueKickoff) != 0; ++tick) {
        const Vec2 to_ball = match.puck_disk(0).position - match.player_disk(0).position;
        inputs[0] = game::Input::toward(to_ball, true);
        match.step(inputs);
    }
    CHECK((mask(blue) & groups::kBlueKickoff) == 0);
}

// The second example stadium: bumpers (movable discs) that players and the
// ball push around, back in place at each kick-off ('full').
TEST_CASE("hbs_the_bumpers_stadium_plays_a_match_with_movable_discs") {
    auto loaded = load_stadium_file(CAROM_STADIUMS_DIR "/bumpers.hbs");
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
    const game::Map& map = loaded->map;
    REQUIRE(map.discs.size() == 3);
    CHECK(map.posts.size() == 4);
    CHECK(map.kickoff_resets_discs);
    CHECK(map.team_size == 3);  // three spawn points a team
    game::Match match(map, 8);
    for (game::Slot s = 0; s < match.slot_count(); ++s) {
        std::string name = "p";
        name += std::to_string(s);
        match.join(s, name);
    }
    // A red player runs at the first bumper and shoves it; players pass
    // through the third (its mask holds only the ball and the walls).
    const Vec2 start = match.disc_disk(0).position;
    const Vec2 third = match.disc_disk(2).position;
    std::vector<game::Input> inputs(match.slot_count());
    double closest = 1e9;  // of the third bumper's and player 2's centres
    for (int tick = 0; tick < 180; ++tick) {
        inputs[0] =
            game::Input::toward(match.disc_disk(0).position - match.player_disk(0).position);
        inputs[2] = game::Input::toward(third - match.player_disk(2).position);
        match.step(inputs);
        const Vec2 d = match.player_disk(2).position - third;
        closest = std::min(closest, std::sqrt(d.x * d.x + d.y * d.y));
    }
    CHECK(closest < 5.0);  // right through it
    const Vec2 moved = match.disc_disk(0).position - start;
    CHECK(std::sqrt(moved.x * moved.x + moved.y * moved.y) > 10.0);
    CHECK(match.disc_disk(2).position == third);
    // The ball in the net: after the pause, the kick-off puts the bumper back.
    game::MatchState s = match.save();
    s.pucks[0].disk = {map.goals[1].post_a + Vec2{-20.0, 50.0}, {600.0, 0.0}};
    match.restore(s);
    std::fill(inputs.begin(), inputs.end(), game::Input::idle());
    bool kicked_off = false;
    for (std::uint32_t tick = 0; tick < game::kGoalPauseTicks + 30 && !kicked_off; ++tick)
        for (const game::MatchEvent& e : match.step(inputs))
            kicked_off |= e.kind == game::MatchEvent::Kind::kickoff;
    REQUIRE(kicked_off);
    CHECK(match.score(game::Team::left) == 1);
    CHECK(match.disc_disk(0).position == start);
}

}  // namespace
}  // namespace carom::stadium
