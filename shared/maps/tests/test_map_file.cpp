// Map files (map_file.hpp): the shipped maps load; bad files name file, place and reason.
#include "carom/maps/map_file.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "carom/game/match.hpp"
#include "carom/protocol/map_codec.hpp"

using namespace carom;

namespace {

void replace(std::string& s, const std::string& from, const std::string& to) {
    s.replace(s.find(from), from.size(), to);
}

std::string error_of(const std::string& json) {
    auto r = maps::parse_map_json(json, "bad.json");
    REQUIRE_FALSE(r.ok());
    return r.error().message;
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

const char* const kMinimal = R"({
  "name": "tiny", "width": 40, "height": 20,
  "goals": [
    {"defender": "left", "post_a": {"x": 0, "y": 7}, "post_b": {"x": 0, "y": 13}},
    {"defender": "right", "post_a": {"x": 40, "y": 7}, "post_b": {"x": 40, "y": 13}}],
  "spawns": [{"team": "left", "position": {"x": 10, "y": 10}},
             {"team": "right", "position": {"x": 30, "y": 10}}],
  "puck_spawns": [{"x": 20, "y": 10}]
})";

}  // namespace

TEST_CASE("The shipped maps load and are playable") {
    for (const char* name : {"rink", "arena", "stadium"}) {
        CAPTURE(name);
        auto r = maps::load_map_file(std::string(CAROM_MAPS_DIR) + "/" + name + ".json");
        if (!r) FAIL(r.error().message);
        const game::Map& m = *r;
        CHECK(m.name == name);
        CHECK(m.goals.size() == 2);
    }
    auto stadium = maps::load_map_file(std::string(CAROM_MAPS_DIR) + "/stadium.json");
    CHECK(stadium->team_size == 8);
}

TEST_CASE("A minimal map takes the defaults") {
    auto r = maps::parse_map_json(kMinimal, "tiny.json");
    REQUIRE(r.ok());
    const game::Map& m = *r;
    CHECK(m.team_size == 1);
    CHECK(m.match_seconds == 180);
    CHECK(m.tuning.player_radius == 2.0);
}

TEST_CASE("Bad map files are refused with the file, the place and the reason") {
    auto missing = maps::load_map_file("/nonexistent/map.json");
    REQUIRE_FALSE(missing.ok());
    CHECK(contains(missing.error().message, "/nonexistent/map.json: cannot open"));

    std::string e = error_of("{ \"name\": \"x\", ");
    CHECK(contains(e, "bad.json: "));
    CHECK(contains(e, "1:"));  // line of the syntax error

    e = error_of(R"({"name": "x", "widht": 10})");
    CHECK(contains(e, "widht"));  // an unknown field is an error, not ignored

    e = error_of(R"({"name": "x", "width": "wide"})");
    CAPTURE(e);
    // The place (line 1, column 30: just after the value) and what is wrong with it.
    CHECK(contains(e, "bad.json: 1: 30: "));
    CHECK(contains(e, "invalid number: \"wide\""));

    std::string json = kMinimal;
    replace(json, R"("x": 0, "y": 13)", R"("x": 0, "y": 7)");
    e = error_of(json);
    CHECK(contains(e, "bad.json: goals[0].post_b: posts coincide"));

    json = kMinimal;
    replace(json, R"("defender": "right")", R"("defender": "left")");
    e = error_of(json);
    CHECK(contains(e, "goals: both goals are defended by the same team"));

    e = error_of(R"({"width": 10})");
    CHECK(contains(e, "name"));  // a required field
}

TEST_CASE("Map files with unknown team names, non-finite numbers or too much are refused") {
    struct Case {
        const char* from;
        const char* to;
        const char* expected;
    };
    const Case cases[] = {
        // An enum name the schema does not have: the parser names it.
        {R"("defender": "right")", R"("defender": "middle")", "middle"},
        {R"("team": "left")", R"("team": "blue")", "blue"},
        // A number outside the enum gets past the parser: the map reader refuses it.
        {R"("defender": "right")", R"("defender": 7)", "bad.json: goals[1].defender: unknown team"},
        {R"("team": "right")", R"("team": 9)", "bad.json: spawns[1].team: unknown team"},
        {R"("position": {"x": 10, "y": 10})", R"("position": {"x": inf, "y": 10})",
         "bad.json: spawns[0].position: must be finite"},
        {R"("puck_spawns": [{"x": 20, "y": 10}])",
         R"("puck_spawns": [{"x": 20, "y": 10}],
             "segments": [{"a": {"x": 1, "y": 1}, "b": {"x": nan, "y": 2}}])",
         "bad.json: segments[0].a/b: must be finite"},
        {R"("name": "tiny")", R"("name": "tiny", "team_size": 17)",
         "bad.json: team_size: must be in [1, 16]"},
        {R"("puck_spawns": [{"x": 20, "y": 10}])",
         R"("puck_spawns": [{"x": 20, "y": 10}, {"x": 20, "y": 10}, {"x": 20, "y": 10},
             {"x": 20, "y": 10}, {"x": 20, "y": 10}, {"x": 20, "y": 10}, {"x": 20, "y": 10},
             {"x": 20, "y": 10}, {"x": 20, "y": 10}, {"x": 20, "y": 10}, {"x": 20, "y": 10},
             {"x": 20, "y": 10}, {"x": 20, "y": 10}, {"x": 20, "y": 10}, {"x": 20, "y": 10},
             {"x": 20, "y": 10}, {"x": 20, "y": 10}])",
         "bad.json: puck_spawns: need between 1 and 16 pucks"},
        // Posts at (0, 7) and (40, 13): the goal line runs through the centre (20, 10).
        {R"("post_b": {"x": 0, "y": 13})", R"("post_b": {"x": 40, "y": 13})",
         "bad.json: goals[0].posts: the goal line passes through the field centre"},
    };
    for (const Case& c : cases) {
        std::string json = kMinimal;
        replace(json, c.from, c.to);
        const std::string e = error_of(json);
        CAPTURE(c.to);
        CAPTURE(e);
        CHECK(contains(e, c.expected));
    }
}

TEST_CASE("Oversized map files are refused by their size or their counts, quickly") {
    const auto dir = std::filesystem::temp_directory_path();
    const auto huge = dir / ("carom-huge-map-" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(huge);
        out << kMinimal;
    }
    // A sparse file one byte past the limit: refused by its size, before reading.
    std::filesystem::resize_file(huge, maps::kMaxMapFileBytes + 1);
    auto r = maps::load_map_file(huge);
    std::filesystem::remove(huge);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message ==
          huge.string() + ": 4194305 bytes, larger than a map file " + "may be (4194304 bytes)");

    // 60 000 boxes in 3.4 MB: within the size, refused by the count.
    std::string json = kMinimal;
    std::string boxes = R"(, "boxes": [)";
    for (int i = 0; i < 60000; ++i)
        boxes +=
            std::string(i ? "," : "") + R"({"center":{"x":1,"y":1},"half_extents":{"x":1,"y":1}})";
    boxes += "]";
    json.insert(json.rfind('}'), boxes);
    REQUIRE(json.size() < maps::kMaxMapFileBytes);
    const auto start = std::chrono::steady_clock::now();
    const std::string e = error_of(json);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE("60 000 boxes refused in " << seconds << " s");
    CHECK(e == "bad.json: boxes: 60000, at most 1024");
}

TEST_CASE("A stadium file loads as the map its replays and the wire carry, bit for bit") {
    // A segment curved the other way with no bias: HaxBall's rule negates
    // the bias, which must stay +0 (a -0 would come back +0 from the binary
    // form, and a match on one would not hash like a match on the other).
    const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                       ("carom-curve-" + std::to_string(::getpid()) + ".hbs");
    std::ofstream(file) << R"({ name: 'curve', width: 150, height: 100, spawnDistance: 40,
      goals: [ { p0: [-120, 20], p1: [-120, -20], team: 'red' },
               { p0: [120, -20], p1: [120, 20], team: 'blue' } ],
      planes: [ { normal: [0, 1], dist: -100 }, { normal: [0, -1], dist: -100 },
                { normal: [1, 0], dist: -150 }, { normal: [-1, 0], dist: -150 } ],
      vertexes: [ { x: -60, y: 80 }, { x: 60, y: 80 } ],
      segments: [ { v0: 0, v1: 1, curve: -60 } ] })";
    auto loaded = maps::load_map_file(file);
    std::filesystem::remove(file);
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
    const std::vector<std::uint8_t> bytes = protocol::map_to_binary(*loaded);
    auto decoded = protocol::map_from_binary(bytes);
    REQUIRE(decoded.ok());
    CHECK(game::Match(*loaded, 1).state_hash() == game::Match(*decoded, 1).state_hash());
    REQUIRE(loaded->walls.size() == 5);
    CHECK_FALSE(std::signbit(loaded->walls[0].bias));
}
