#pragma once
// The client plays on the map the server names in Accepted: it loads the same
// JSON file by name and the caller checks protocol::map_hash against
// Accepted.map_hash before trusting it.
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::client {

// The map in <dir>/<name>.json for the first of `dirs` that holds it; or an
// error naming what was tried. The name comes from the network, so only
// [A-Za-z0-9_-] (1 to 64 characters) is accepted: never a path.
Result<game::Map> find_map(std::string_view name, std::span<const std::filesystem::path> dirs);

}  // namespace carom::client
