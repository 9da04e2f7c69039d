#include "map_cache.hpp"

#include <spdlog/fmt/fmt.h>

#include "carom/client/map_lookup.hpp"
#include "carom/protocol/map_codec.hpp"

namespace carom::loadgen {

std::variant<const LoadedMap*, std::string> MapCache::get(const std::string& name,
                                                          std::uint64_t expected_hash) {
    auto it = maps_.find(name);
    if (it == maps_.end()) {
        auto found = client::find_map(name, dirs_);
        std::variant<LoadedMap, std::string> entry;
        if (auto* map = std::get_if<game::Map>(&found)) {
            LoadedMap loaded;
            loaded.hash = protocol::map_hash(*map);
            loaded.puck_count = static_cast<std::uint32_t>(map->puck_spawns.size());
            loaded.slot_count = 2 * map->team_size;
            loaded.map = std::move(*map);
            entry = std::move(loaded);
        } else {
            entry = std::move(std::get<std::string>(found));
        }
        it = maps_.emplace(name, std::move(entry)).first;
    }
    if (const auto* error = std::get_if<std::string>(&it->second)) return *error;
    const LoadedMap& loaded = std::get<LoadedMap>(it->second);
    if (loaded.hash != expected_hash)
        return fmt::format("map '{}' here hashes to {:016x}, the server's to {:016x}", name,
                           loaded.hash, expected_hash);
    return &loaded;
}

}  // namespace carom::loadgen
