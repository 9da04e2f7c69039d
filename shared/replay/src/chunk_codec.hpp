#pragma once
// Between the in-memory replay pieces and their FlatBuffers tables.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "carom/replay/replay.hpp"
#include "replay_generated.h"

namespace carom::replay::detail {

flatbuffers::Offset<schema::Header> encode(flatbuffers::FlatBufferBuilder& b, const Header& h);
flatbuffers::Offset<schema::Keyframe> encode(flatbuffers::FlatBufferBuilder& b, const Keyframe& k);
flatbuffers::Offset<schema::Footer> encode(flatbuffers::FlatBufferBuilder& b, const Footer& f);

// Each returns the reason when a verified table still holds values the
// game cannot take (unknown enum values, out-of-range slots...).
std::optional<std::string> decode(const schema::Header& table, Header& out);
std::optional<std::string> decode(const schema::Keyframe& table, Keyframe& out);
std::optional<std::string> decode(const schema::Footer& table, Footer& out);

// The input bits the game uses (direction, move, kick); a recorded input
// with any other bit set is refused, not silently cleared.
inline constexpr std::uint8_t kInputBits = 0x3F;
static_assert(game::Input::from_bits(0xFF).bits() == kInputBits,
              "the reader's input bits must be the game's");

// The packed input stream of a TickBatch: varint(offset * 32 + slot), input byte.
inline constexpr std::uint32_t kMaxSlots = 32;
void append_input_change(std::vector<std::uint8_t>& out, std::uint64_t tick_offset,
                         std::uint32_t slot, std::uint8_t bits);

}  // namespace carom::replay::detail
