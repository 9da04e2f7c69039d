#pragma once
// The maps of the simulated clients, by hash: each is looked for once (the
// map cache and the map directories, maps::MapLibrary), and a map one
// client fetched from the server serves the clients accepted after it.
#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "carom/maps/map_library.hpp"
#include "carom/game/map.hpp"

namespace carom::loadgen {

class MapCache {
  public:
    explicit MapCache(maps::MapLibrary library) : library_(std::move(library)) {}

    // The map whose binary hashes to `hash` (Accepted names it `name`);
    // null when none is held: the client fetches it from the server.
    const game::Map* find(const std::string& name, std::uint64_t hash);
    // A map a client fetched (its binary hashed to `hash`): for the others,
    // and for the library's cache.
    void keep(std::uint64_t hash, const game::Map& map, std::span<const std::uint8_t> bytes);

  private:
    maps::MapLibrary library_;
    std::map<std::uint64_t, std::optional<game::Map>> maps_;  // nullopt: not found locally
};

}  // namespace carom::loadgen
