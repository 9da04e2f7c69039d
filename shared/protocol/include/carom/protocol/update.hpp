#pragma once
// ServerUpdate: what a room's match did over the ticks (baseline, tick], as
// the inputs the server applied and the roster changes it made, so that a
// client holding the match exactly as it was after `baseline` steps it to
// `tick` bit for bit (schemas/PROTOCOL.md, "ServerUpdate").
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/game/tick_log.hpp"
#include "carom/protocol/input_delta.hpp"
#include "carom/result.hpp"
#include "net_generated.h"

namespace carom::protocol {

// Ticks an update spans at most (tick - baseline): more than the server keeps.
inline constexpr std::uint64_t kMaxUpdateTicks = 1024;

// A slot's input changed at `tick`: the input applied in that tick's step
// differs from the one it held (its last applied, idle after a join).
struct InputChange {
    std::uint64_t tick = 0;
    game::Slot slot = 0;
    InputDelta delta;
    friend bool operator==(const InputChange&, const InputChange&) = default;
};

// After the step of `tick`, the room's match is a new one of `seed` with
// these slots joined, in this order.
struct MatchStart {
    std::uint64_t tick = 0;
    std::uint64_t seed = 0;
    std::vector<game::RosterEntry> slots;
    friend bool operator==(const MatchStart&, const MatchStart&) = default;
};

// One ServerUpdate's meaning.
struct Update {
    std::uint64_t tick = 0;      // the server tick it brings the client to
    std::uint64_t baseline = 0;  // the server tick the client's state must be at (< tick)
    std::uint16_t state = 0;     // the low 16 bits of the state hash after `tick`
    // How far the newest input of the receiver's that the server applied
    // moved from `baseline` to `tick`, modulo 2^32 (one a tick when none was
    // lost). Players only: a spectator's stream has none.
    std::uint32_t sequence_advance = 0;
    std::vector<InputChange> inputs;         // by tick, then slot
    std::vector<game::RosterChange> roster;  // by tick, in the order applied
    std::optional<MatchStart> match_start;
    std::uint64_t halted_since = 0;  // 0: the room steps every tick
    std::optional<float> server_tick_ms;
    friend bool operator==(const Update&, const Update&) = default;
};

// What the receiver must know to read an update's stream.
struct UpdateContext {
    std::uint32_t slots = 0;  // player slots of the room's map
    bool player = false;      // the receiver plays (the stream has its sequence)
};

// Writes `update` as a ServerUpdate into `builder` (cleared first) and
// returns the datagram: empty, or larger than kMaxSessionDatagramBytes, when the
// update does not fit a datagram (then the server sends a FullState).
std::span<const std::uint8_t> encode_update(flatbuffers::FlatBufferBuilder& builder,
                                            const Update& update, const UpdateContext& context);

// The low 16 bits of a state hash, as UpdateHead.state carries them.
inline std::uint16_t state_check(std::uint64_t state_hash) {
    return static_cast<std::uint16_t>(state_hash);
}

// Reads a verified ServerUpdate whose full tick is `tick` (its low 16 bits
// extended by the receiver). The error names what does not fit: a stream
// cut short or with bits left over, a slot out of range, a roster change
// or match start outside the update's ticks, a baseline not before the tick.
Result<Update> decode_update(const net::ServerUpdate& update, std::uint64_t tick,
                             const UpdateContext& context);

}  // namespace carom::protocol
