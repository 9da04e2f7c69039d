#pragma once
// Between the in-memory replay pieces and their FlatBuffers tables.
#include <cstdint>
#include <span>
#include <vector>

#include "carom/replay/replay.hpp"
#include "carom/result.hpp"
#include "replay_generated.h"

namespace carom::replay::detail {

flatbuffers::Offset<schema::Header> encode(flatbuffers::FlatBufferBuilder& b, const Header& h);
flatbuffers::Offset<schema::Keyframe> encode(flatbuffers::FlatBufferBuilder& b, const Keyframe& k);
flatbuffers::Offset<schema::Footer> encode(flatbuffers::FlatBufferBuilder& b, const Footer& f);

// The ticks of one TickBatch chunk: first_tick .. first_tick + hashes.size() - 1,
// with the input changes, roster changes and events among them.
struct TickBatch {
    std::uint64_t first_tick = 0;
    std::vector<InputChange> inputs;  // in (tick, slot) order, one per tick and slot
    std::vector<std::uint64_t> hashes;
    std::vector<game::RosterChange> roster;  // applied before the step of their tick
    std::vector<game::MatchEvent> events;
};
flatbuffers::Offset<schema::TickBatch> encode(flatbuffers::FlatBufferBuilder& b,
                                              const TickBatch& batch);

// Each fails with the reason when a verified table still holds values the
// game cannot take (unknown enum values, out-of-range slots...).
Status decode(const schema::Header& table, Header& out);
Status decode(const schema::Keyframe& table, Keyframe& out);
Status decode(const schema::Footer& table, Footer& out);
// `slots`: the header's player slots. Also refuses input changes out of
// (tick, slot) order or past the batch, which bounds what a file can hold.
Status decode(const schema::TickBatch& table, std::uint32_t slots, TickBatch& out);

// Format 2's packed tick batch (schemas/PROTOCOL.md): the same changes as a
// TickBatch table without FlatBuffers' framing, and the top kTickHashBits of
// each tick's hash. `batch.hashes` holds full hashes to encode; decoding
// gives the kept bits.
std::vector<std::uint8_t> encode_packed(const TickBatch& batch);
// The bytes of each part of a packed batch; the rest (first tick, tick count)
// is framing.
struct PackedSizes {
    std::uint64_t inputs = 0;  // the stream and its length
    std::uint64_t roster = 0;  // the count and the changes
    std::uint64_t events = 0;  // the count and the events
    std::uint64_t hashes = 0;
};
Status decode_packed(std::span<const std::uint8_t> bytes, std::uint32_t slots, TickBatch& out,
                     PackedSizes* sizes = nullptr);

// The input bits the game uses (direction, move, kick); a recorded input
// with any other bit set is refused, not silently cleared.
inline constexpr std::uint8_t kInputBits = 0x3F;
static_assert(game::Input::from_bits(0xFF).bits() == kInputBits,
              "the reader's input bits must be the game's");

// The packed input stream of a TickBatch: varint(Δtick * 32 + slot), input byte.
inline constexpr std::uint32_t kMaxSlots = 32;

}  // namespace carom::replay::detail
