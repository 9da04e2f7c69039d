#pragma once
// Maps by the name Accepted carries, loaded once for all simulated clients
// and checked against the server's hash.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::loadgen {

struct LoadedMap {
    game::Map map;
    std::uint64_t hash = 0;
};

class MapCache {
  public:
    explicit MapCache(std::vector<std::filesystem::path> dirs) : dirs_(std::move(dirs)) {}

    // The map named `name` whose hash is `expected_hash`; or why not (not
    // found, unreadable, or a different map than the server's).
    Result<const LoadedMap*> get(const std::string& name, std::uint64_t expected_hash);

  private:
    std::vector<std::filesystem::path> dirs_;
    std::map<std::string, Result<LoadedMap>> maps_;  // a failure is remembered too
};

}  // namespace carom::loadgen
