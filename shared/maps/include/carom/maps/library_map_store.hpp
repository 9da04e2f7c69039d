#pragma once
// A terminal player's maps: those of a MapLibrary (a cache by hash, then
// map files), each looked for and checked once and then shared by every
// connection that uses this store.
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "carom/client/map_store.hpp"
#include "carom/maps/map_library.hpp"

namespace carom::maps {

class LibraryMapStore final : public client::MapStore {
  public:
    explicit LibraryMapStore(MapLibrary library) : library_(std::move(library)) {}

    std::optional<client::StoredMap> find(std::string_view name, std::uint64_t hash) override;
    Status keep(std::uint64_t hash, const game::CheckedMap& map,
                std::vector<std::uint8_t> bytes) override;

  private:
    MapLibrary library_;
    std::map<std::uint64_t, std::optional<client::StoredMap>> held_;  // nullopt: not here
};

}  // namespace carom::maps
