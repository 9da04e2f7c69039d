// The client's map library: maps fetched before, kept by hash; map files
// used only when they hash the same.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "carom/maps/map_library.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/map_transfer.hpp"
#include "carom/testing/temp_dir.hpp"

using namespace carom;
using namespace carom::maps;
using carom::test::TempDir;

namespace {

using Bytes = std::vector<std::uint8_t>;

game::Map shipped_map(const char* name) {
    const std::filesystem::path dirs[] = {CAROM_MAPS_DIR};
    return find_map(name, dirs).value();
}

}  // namespace

TEST_CASE("the map library finds a cached map by hash, never by name, and skips damaged files") {
    TempDir dir;
    const Bytes arena = protocol::map_to_binary(shipped_map("arena"));
    const std::uint64_t hash = protocol::map_bytes_hash(arena);
    const MapLibrary empty(dir.path / "cache", {});
    CHECK(!empty.find("arena", hash));
    REQUIRE(empty.store(hash, arena));
    const auto found = empty.find("anything", hash);
    REQUIRE(found);
    CHECK(found->file == empty.cached_file(hash));
    CHECK(protocol::map_hash(found->map) == hash);
    // Another hash: not this file, whatever the name says.
    CHECK(!empty.find("arena", hash ^ 1));
    // A damaged cache file is passed over; the map directory's file of the
    // same hash is used instead.
    {
        std::ofstream out(empty.cached_file(hash), std::ios::binary | std::ios::trunc);
        out << "not a map";
    }
    CHECK(!empty.find("arena", hash));
    const MapLibrary with_dirs(dir.path / "cache", {std::filesystem::path(CAROM_MAPS_DIR)});
    const auto from_dir = with_dirs.find("arena", hash);
    REQUIRE(from_dir);
    CHECK(from_dir->file.filename() == "arena.json");
    // A file of that name but another map is not used.
    CHECK(!with_dirs.find("rink", hash));
}

TEST_CASE("the map cache is under XDG_CACHE_HOME, else HOME/.cache") {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const std::string saved_xdg = xdg != nullptr ? xdg : "";
    const std::string saved_home = home != nullptr ? home : "";
    ::setenv("XDG_CACHE_HOME", "/x/cache", 1);
    CHECK(MapLibrary::default_cache_dir() == "/x/cache/carom/maps");
    ::setenv("XDG_CACHE_HOME", "relative", 1);  // not absolute: ignored, as XDG says
    ::setenv("HOME", "/home/ana", 1);
    CHECK(MapLibrary::default_cache_dir() == "/home/ana/.cache/carom/maps");
    ::unsetenv("XDG_CACHE_HOME");
    ::unsetenv("HOME");
    CHECK(MapLibrary::default_cache_dir().empty());
    if (xdg != nullptr) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
    if (home != nullptr) ::setenv("HOME", saved_home.c_str(), 1);
}
