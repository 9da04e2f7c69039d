#pragma once
// Maps between the game's Map and the FlatBuffers Map table (schemas/map.fbs):
// the form replays embed and the JSON map files are parsed into.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "carom/game/map.hpp"
#include "carom/game/match.hpp"
#include "carom/result.hpp"
#include "map_generated.h"

namespace carom::protocol {

flatbuffers::Offset<schema::Map> encode_map(flatbuffers::FlatBufferBuilder& builder,
                                            const game::Map& map);

// A verified table to a game map; the error names the field when it is not
// playable (game::validate).
Result<game::Map> decode_map(const schema::Map& table);

// A standalone binary map (file identifier "CMAP"), verified before it is read.
std::vector<std::uint8_t> map_to_binary(const game::Map& map);
Result<game::Map> map_from_binary(std::span<const std::uint8_t> bytes);
// The same, checked once into the handle every match on it shares (what a
// client makes of a map it fetched).
Result<game::CheckedMap> checked_map_from_binary(std::span<const std::uint8_t> bytes);

// XXH3-64 of the map's binary (map_to_binary, the bytes the server sends in
// MapChunks): Accepted names the room's map by it, so that a client plays on
// exactly the server's map.
std::uint64_t map_hash(const game::Map& map);

}  // namespace carom::protocol
