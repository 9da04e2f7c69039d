#include "map_cache.hpp"

#include <spdlog/spdlog.h>

namespace carom::loadgen {

const game::Map* MapCache::find(const std::string& name, std::uint64_t hash) {
    auto it = maps_.find(hash);
    if (it == maps_.end()) {
        auto found = library_.find(name, hash);
        it = maps_.emplace(hash, found ? std::optional(std::move(found->map)) : std::nullopt).first;
    }
    return it->second ? &*it->second : nullptr;
}

void MapCache::keep(std::uint64_t hash, const game::Map& map, std::span<const std::uint8_t> bytes) {
    std::optional<game::Map>& held = maps_[hash];
    if (held) return;
    held = map;
    if (const Status kept = library_.store(hash, bytes); !kept)
        spdlog::warn("the fetched map is not kept: {}", kept.error().message);
}

}  // namespace carom::loadgen
