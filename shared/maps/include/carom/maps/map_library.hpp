#pragma once
// Where a client finds the map Accepted names before it asks the server for
// it: maps fetched before, cached by hash ($XDG_CACHE_HOME/carom/maps, else
// ~/.cache/carom/maps), then map files of that name in the map directories,
// used only when they hash the same. A name from the network is never
// trusted: a map is the one whose bytes hash to Accepted.map_hash.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::maps {

class MapLibrary {
  public:
    // `cache_dir` empty: no cache (nothing read, nothing kept).
    MapLibrary(std::filesystem::path cache_dir, std::vector<std::filesystem::path> dirs);

    // $XDG_CACHE_HOME/carom/maps when XDG_CACHE_HOME is an absolute path,
    // else $HOME/.cache/carom/maps; empty when neither is set.
    static std::filesystem::path default_cache_dir();

    struct Found {
        game::Map map;
        std::filesystem::path file;  // where it came from
    };
    // The map whose binary hashes to `hash`: the cache's <hash>.cmap, else
    // <dir>/<name>.json or .hbs of the first directory whose map hashes so.
    // nullopt when none does (the map must be fetched).
    std::optional<Found> find(std::string_view name, std::uint64_t hash) const;

    // Keeps a fetched map's binary as <cache>/<hash>.cmap (written to a
    // temporary name and renamed: a reader never sees half a map).
    Status store(std::uint64_t hash, std::span<const std::uint8_t> bytes) const;

    const std::filesystem::path& cache_dir() const { return cache_dir_; }
    std::filesystem::path cached_file(std::uint64_t hash) const;

  private:
    std::filesystem::path cache_dir_;
    std::vector<std::filesystem::path> dirs_;
};

}  // namespace carom::maps
