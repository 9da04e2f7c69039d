// A native client's map files and cache (client_maps.hpp).
#include <sstream>
#include <string>

#include "carom/maps/library_map_store.hpp"
#include "carom/maps/map_search.hpp"
#include "client_maps.hpp"

namespace carom::capi {

std::unique_ptr<client::MapStore> file_map_store(const char* map_dirs, const char* map_cache) {
    std::vector<std::filesystem::path> dirs;
    if (map_dirs != nullptr) {
        std::stringstream entries{std::string(map_dirs)};
        for (std::string dir; std::getline(entries, dir, ':');)
            if (!dir.empty()) dirs.emplace_back(dir);
    }
    return std::make_unique<maps::LibraryMapStore>(
        maps::MapLibrary(map_cache != nullptr ? map_cache : "", maps::map_search_dirs(dirs)));
}

}  // namespace carom::capi
