#pragma once
// Where a connection gets the room's map before it asks the server for it,
// and where it leaves a map it fetched. The host passes one in (map files
// and a cache by hash for a player, one store shared by many simulated
// clients for a load test). A map comes out checked (game::CheckedMap): the
// replica, the predictor and libcarom's handle share that one map, and none
// checks it again.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/maps/map_library.hpp"
#include "carom/result.hpp"

namespace carom::client {

struct StoredMap {
    game::CheckedMap map;
    std::string source;  // where it came from (a file), for the player to show
};

class MapStore {
  public:
    virtual ~MapStore() = default;
    // The map whose binary hashes to `hash`; `name` (Accepted's, from the
    // network) is a hint, never a path. nullopt: the connection fetches it.
    virtual std::optional<StoredMap> find(std::string_view name, std::uint64_t hash) = 0;
    // A map fetched from the server and checked, with its binary (which
    // hashes to `hash`): kept for the next connection. An error is the
    // store's (the map is played all the same).
    virtual Status keep(std::uint64_t hash, const game::CheckedMap& map,
                        std::vector<std::uint8_t> bytes) = 0;
};

// The maps of a maps::MapLibrary (a cache by hash, then map files), each
// looked for and checked once and then shared by every connection that uses
// this store.
class LibraryMapStore final : public MapStore {
  public:
    explicit LibraryMapStore(maps::MapLibrary library) : library_(std::move(library)) {}

    std::optional<StoredMap> find(std::string_view name, std::uint64_t hash) override;
    Status keep(std::uint64_t hash, const game::CheckedMap& map,
                std::vector<std::uint8_t> bytes) override;

  private:
    maps::MapLibrary library_;
    std::map<std::uint64_t, std::optional<StoredMap>> held_;  // nullopt: not here
};

}  // namespace carom::client
