// The browser's client has no files: its maps are those the page offers
// and those it fetches (client_maps.hpp).
#include "client_maps.hpp"

namespace carom::capi {

std::unique_ptr<client::MapStore> file_map_store(const char*, const char*) {
    return nullptr;
}

}  // namespace carom::capi
