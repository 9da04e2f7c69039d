#pragma once
// Where a connection gets the room's map before it asks the server for it,
// and where it leaves a map it fetched. The host passes one in: map files
// and a cache by hash for a terminal player (maps::LibraryMapStore), one
// store shared by many simulated clients for a load test, the maps a
// browser kept for the page (MemoryMapStore). A map comes out checked (game::CheckedMap): the
// replica, the predictor and libcarom's handle share that one map, and none
// checks it again.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "carom/game/match.hpp"
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

// Maps held in memory: those the host offers as binaries (a browser's own
// cache, say) and those the connection fetched, each checked once.
class MemoryMapStore final : public MapStore {
  public:
    // A map's binary, checked and held by its hash; `source` is what the
    // player is told it came from. An error says why the map is refused.
    Status offer(std::span<const std::uint8_t> bytes, std::string source);

    std::optional<StoredMap> find(std::string_view name, std::uint64_t hash) override;
    Status keep(std::uint64_t hash, const game::CheckedMap& map,
                std::vector<std::uint8_t> bytes) override;

  private:
    std::map<std::uint64_t, StoredMap> held_;
};

}  // namespace carom::client
