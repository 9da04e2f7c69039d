#pragma once
// Where a map named without a path (`--map arena`, or the name a server's
// Accepted gives) is found, so that every program finds the same file by the
// same name: in a build tree, installed to any prefix, or pointed at other
// maps with CAROM_MAPS.
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::maps {

// The directories searched, in order:
// 1. `first` (a program's own option, or libcarom's list), as given;
// 2. each entry of CAROM_MAPS (directories separated by ':', empty ones skipped);
// 3. maps/ beside the running executable (the build tree copies them there);
// 4. ../share/carom/maps from the executable's directory (an installed prefix,
//    wherever it was moved);
// 5. the data directory of the configured install prefix.
std::vector<std::filesystem::path> map_search_dirs(
    std::span<const std::filesystem::path> first = {});

// A name a map file may have: [A-Za-z0-9_-], 1 to 64 characters. A name from
// the network is never a path.
bool plain_map_name(std::string_view name);

// <dir>/<name>.json, else <dir>/<name>.hbs (a HaxBall stadium), in the first
// of `dirs` that holds either. An error when the name is not plain, or
// naming every directory tried.
Result<std::filesystem::path> find_map_file(std::string_view name,
                                            std::span<const std::filesystem::path> dirs);

// find_map_file(), loaded (load_map_file()).
Result<game::Map> find_map(std::string_view name, std::span<const std::filesystem::path> dirs);

// A --map argument as a file: one with a '/' or ending in ".json" or ".hbs" is
// a path, used as given; any other is a name, found by find_map_file().
Result<std::filesystem::path> resolve_map(std::string_view argument,
                                          std::span<const std::filesystem::path> dirs);

}  // namespace carom::maps
