#pragma once
// Where a map named without a path (`--map arena`) is found, so a program runs
// from any directory: in a build tree, installed to any prefix, or pointed at
// other maps with CAROM_MAPS.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "carom/result.hpp"

namespace carom::protocol {

// The directories searched, in order:
// 1. each entry of CAROM_MAPS (directories separated by ':', empty ones skipped);
// 2. maps/ beside the running executable (the build tree copies them there);
// 3. ../share/carom/maps from the executable's directory (an installed prefix,
//    wherever it was moved);
// 4. the data directory of the configured install prefix.
std::vector<std::filesystem::path> map_search_dirs();

// A --map argument as a file: one with a '/' or ending in ".json" or ".hbs" (a
// HaxBall stadium) is a path, used as given; any other is a name,
// <dir>/<name>.json in the first of `dirs` that has it. An error names what
// was tried.
Result<std::filesystem::path> resolve_map(std::string_view argument,
                                          const std::vector<std::filesystem::path>& dirs);

}  // namespace carom::protocol
