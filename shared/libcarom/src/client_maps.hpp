#pragma once
// Where a libcarom client's connection finds the room's map: the maps the
// host offered (carom_client_add_map: a browser's own cache), then map files
// and the cache directory where the host has files. file_map_store() is the
// seam: native builds make a maps::LibraryMapStore (client_files.cpp), the
// browser's module has no files (client_no_files.cpp).
#include <memory>

#include "carom/client/map_store.hpp"

namespace carom::capi {

// The map files of `map_dirs` (':'-separated, before the usual places) and a
// cache in `map_cache` (NULL: none kept); null where there are no files.
std::unique_ptr<client::MapStore> file_map_store(const char* map_dirs, const char* map_cache);

class ClientMaps final : public client::MapStore {
  public:
    void set_files(std::unique_ptr<client::MapStore> files) { files_ = std::move(files); }
    client::MemoryMapStore& offered() { return offered_; }

    std::optional<client::StoredMap> find(std::string_view name, std::uint64_t hash) override {
        if (auto map = offered_.find(name, hash)) return map;
        return files_ ? files_->find(name, hash) : std::nullopt;
    }
    Status keep(std::uint64_t hash, const game::CheckedMap& map,
                std::vector<std::uint8_t> bytes) override {
        (void)offered_.keep(hash, map, {});
        return files_ ? files_->keep(hash, map, std::move(bytes)) : Status{};
    }

  private:
    client::MemoryMapStore offered_;
    std::unique_ptr<client::MapStore> files_;
};

}  // namespace carom::capi
