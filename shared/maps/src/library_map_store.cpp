#include "carom/maps/library_map_store.hpp"

namespace carom::maps {

std::optional<client::StoredMap> LibraryMapStore::find(std::string_view name, std::uint64_t hash) {
    auto it = held_.find(hash);
    if (it == held_.end()) {
        std::optional<client::StoredMap> stored;
        // A file that loads is playable; one that would not check is passed
        // over like one of another hash (the server then sends its map).
        if (auto found = library_.find(name, hash)) {
            if (auto checked = game::CheckedMap::check(std::move(found->map)))
                stored = client::StoredMap{std::move(*checked), found->file.string()};
        }
        it = held_.emplace(hash, std::move(stored)).first;
    }
    return it->second;
}

Status LibraryMapStore::keep(std::uint64_t hash, const game::CheckedMap& map,
                             std::vector<std::uint8_t> bytes) {
    std::optional<client::StoredMap>& held = held_[hash];
    if (held) return {};
    held = client::StoredMap{map, "the server"};
    return library_.store(hash, bytes);
}

}  // namespace carom::maps
