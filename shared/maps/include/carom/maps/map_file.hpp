#pragma once
// Loads a map from its JSON file with FlatBuffers' own parser, against
// schemas/map.fbs. Every failure names the file, and the field (or line and
// column) and the reason.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::maps {

// The largest map file read, checked before parsing (game::limits).
inline constexpr std::size_t kMaxMapFileBytes = game::limits::kFileBytes;

// A file named *.hbs is a HaxBall stadium, imported (carom/stadium/hbs.hpp);
// what the import accepted without an effect goes to `notes` when given.
Result<game::Map> load_map_file(const std::filesystem::path& path,
                                std::vector<std::string>* notes = nullptr);
Result<game::Map> parse_map_json(const std::string& json, const std::string& where);
// A HaxBall stadium's text, imported as load_map_file() imports a .hbs file:
// the same map, bit for bit (so the same hash).
Result<game::Map> parse_map_hbs(std::string_view text, const std::string& where,
                                std::vector<std::string>* notes = nullptr);

// The map as a JSON map file (FlatBuffers' text generator: numbers with 12
// significant digits, so a reloaded map may differ from this one in the last
// bits of a coordinate).
Result<std::string> map_to_json(const game::Map& map);

}  // namespace carom::maps
