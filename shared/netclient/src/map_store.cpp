#include "carom/client/map_store.hpp"

#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/map_transfer.hpp"

namespace carom::client {

Status MemoryMapStore::offer(std::span<const std::uint8_t> bytes, std::string source) {
    auto map = protocol::checked_map_from_binary(bytes);
    if (!map) return map.error();
    held_.insert_or_assign(protocol::map_bytes_hash(bytes),
                           StoredMap{std::move(*map), std::move(source)});
    return {};
}

std::optional<StoredMap> MemoryMapStore::find(std::string_view, std::uint64_t hash) {
    const auto it = held_.find(hash);
    if (it == held_.end()) return std::nullopt;
    return it->second;
}

Status MemoryMapStore::keep(std::uint64_t hash, const game::CheckedMap& map,
                            std::vector<std::uint8_t>) {
    held_.try_emplace(hash, StoredMap{map, "the server"});
    return {};
}

}  // namespace carom::client
