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

// The largest map file read, checked before parsing: a map at every limit
// (1024 boxes, 1024 segments, 64 spawns, 16 pucks) is about 400 KB of
// indented JSON. Lists longer than the limits are refused before they are
// decoded (map_codec), so the memory and time of loading stay in
// proportion to this size.
inline constexpr std::size_t kMaxMapFileBytes = 4u << 20;

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
