#pragma once
// Loads a map from its JSON file with FlatBuffers' own parser, against
// schemas/map.fbs. Every failure names the file, and the field (or line and
// column) and the reason.
#include <filesystem>
#include <string>
#include <variant>

#include "carom/game/map.hpp"

namespace carom::protocol {

std::variant<game::Map, std::string> load_map_file(const std::filesystem::path& path);
std::variant<game::Map, std::string> parse_map_json(const std::string& json,
                                                    const std::string& where);

}  // namespace carom::protocol
