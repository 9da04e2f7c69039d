#include "map_cache.hpp"

#include <spdlog/fmt/fmt.h>

#include "carom/client/map_lookup.hpp"
#include "carom/protocol/map_codec.hpp"

namespace carom::loadgen {

namespace {

Result<LoadedMap> load(const std::string& name, const std::vector<std::filesystem::path>& dirs) {
    auto found = client::find_map(name, dirs);
    if (!found) return found.error();
    LoadedMap loaded;
    loaded.hash = protocol::map_hash(*found);
    loaded.map = std::move(*found);
    return loaded;
}

}  // namespace

Result<const LoadedMap*> MapCache::get(const std::string& name, std::uint64_t expected_hash) {
    auto it = maps_.find(name);
    if (it == maps_.end()) it = maps_.emplace(name, load(name, dirs_)).first;
    if (!it->second) return it->second.error();
    const LoadedMap& loaded = *it->second;
    if (loaded.hash != expected_hash)
        return fail(fmt::format("map '{}' here hashes to {:016x}, the server's to {:016x}", name,
                                loaded.hash, expected_hash));
    return &loaded;
}

}  // namespace carom::loadgen
