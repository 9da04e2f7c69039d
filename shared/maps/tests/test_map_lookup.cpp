// Maps found by name (the one a server's Accepted sends, or a --map
// argument): the same file for every program, and names that are not plain
// names refused.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "carom/maps/map_file.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/testing/temp_dir.hpp"

namespace carom::maps {
namespace {

const std::vector<std::filesystem::path> kDirs = {"/nonexistent-carom-dir", CAROM_MAPS_DIR};

TEST_CASE("find_map_loads_a_shipped_map_from_the_first_dir_that_has_it") {
    auto found = find_map("rink", kDirs);
    REQUIRE(found.ok());
    const game::Map& map = *found;
    CHECK(map.name == "rink");
    CHECK(map.puck_spawns.size() >= 1);
    // The hash is what Accepted carries: the same file gives the same hash.
    auto again = find_map("rink", kDirs);
    CHECK(protocol::map_hash(map) == protocol::map_hash(*again));
    auto arena = find_map("arena", kDirs);
    REQUIRE(arena.ok());
    CHECK(protocol::map_hash(map) != protocol::map_hash(*arena));
}

TEST_CASE("find_map_names_what_it_tried_when_the_map_is_missing") {
    auto found = find_map("no_such_map", kDirs);
    REQUIRE_FALSE(found.ok());
    const std::string& message = found.error().message;
    CHECK(message.find("not found in /nonexistent-carom-dir, ") != std::string::npos);
    CHECK(message.find("no_such_map.json or no_such_map.hbs") != std::string::npos);
}

TEST_CASE("find_map_refuses_names_that_are_paths") {
    for (const char* name : {"../rink", "maps/rink", "", "rink.json", "/etc/passwd", "a b"}) {
        INFO(name);
        auto found = find_map(name, kDirs);
        REQUIRE_FALSE(found.ok());
        CHECK(found.error().message.find("not a plain name") != std::string::npos);
    }
}

TEST_CASE("a map name finds a HaxBall stadium as it finds a JSON map, the JSON first") {
    const std::vector<std::filesystem::path> dirs = {CAROM_MAPS_DIR, CAROM_STADIUMS_DIR};
    // What carom-server --map curves resolves: the stadium, as the client finds it.
    auto file = resolve_map("curves", dirs);
    REQUIRE(file.ok());
    CHECK(file->filename() == "curves.hbs");
    auto by_name = find_map("curves", dirs);
    auto by_file = load_map_file(std::filesystem::path(CAROM_STADIUMS_DIR) / "curves.hbs");
    REQUIRE(by_name.ok());
    REQUIRE(by_file.ok());
    CHECK(protocol::map_hash(*by_name) == protocol::map_hash(*by_file));

    // Both in one directory: the JSON map is taken.
    test::TempDir dir;
    std::filesystem::copy_file(std::filesystem::path(CAROM_MAPS_DIR) / "rink.json",
                               dir.path / "twin.json");
    std::filesystem::copy_file(std::filesystem::path(CAROM_STADIUMS_DIR) / "curves.hbs",
                               dir.path / "twin.hbs");
    const std::filesystem::path one[] = {dir.path};
    auto twin = find_map_file("twin", one);
    REQUIRE(twin.ok());
    CHECK(twin->filename() == "twin.json");
}

TEST_CASE("a map argument with a slash or an extension is a path, used as given") {
    const std::vector<std::filesystem::path> dirs = {CAROM_MAPS_DIR};
    CHECK(*resolve_map("maps/x.json", dirs) == "maps/x.json");
    CHECK(*resolve_map("x.hbs", dirs) == "x.hbs");
    CHECK(*resolve_map("rink", dirs) == std::filesystem::path(CAROM_MAPS_DIR) / "rink.json");
    CHECK_FALSE(resolve_map("", dirs).ok());
    CHECK_FALSE(resolve_map("a b", dirs).ok());
}

TEST_CASE(
    "the map directories: the program's own first, then CAROM_MAPS, then beside the program") {
    const char* saved = std::getenv("CAROM_MAPS");
    const std::string saved_value = saved != nullptr ? saved : "";
    ::setenv("CAROM_MAPS", "/one::/two", 1);
    const std::filesystem::path mine[] = {"/mine"};
    const auto dirs = map_search_dirs(mine);
    REQUIRE(dirs.size() >= 4);
    CHECK(dirs[0] == "/mine");
    CHECK(dirs[1] == "/one");
    CHECK(dirs[2] == "/two");
    CHECK(dirs[3].filename() == "maps");  // beside the test program
    if (saved != nullptr)
        ::setenv("CAROM_MAPS", saved_value.c_str(), 1);
    else
        ::unsetenv("CAROM_MAPS");
}

}  // namespace
}  // namespace carom::maps
