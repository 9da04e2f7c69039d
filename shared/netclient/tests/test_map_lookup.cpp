// Maps found by the name the server sends, and names that are not plain names.
#include <vector>

#include <doctest/doctest.h>

#include "carom/client/map_lookup.hpp"
#include "carom/protocol/map_codec.hpp"

namespace carom::client {
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
    CHECK(found.error().message.find("/nonexistent-carom-dir/no_such_map.json") !=
          std::string::npos);
}

TEST_CASE("find_map_refuses_names_that_are_paths") {
    for (const char* name : {"../rink", "maps/rink", "", "rink.json", "/etc/passwd", "a b"}) {
        INFO(name);
        auto found = find_map(name, kDirs);
        REQUIRE_FALSE(found.ok());
        CHECK(found.error().message.find("not a plain name") != std::string::npos);
    }
}

}  // namespace
}  // namespace carom::client
