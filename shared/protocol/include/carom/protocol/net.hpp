#pragma once
// The wire protocol (schemas/net.fbs) as both ends use it: verifying a
// datagram before anything reads it, quantising disks, and snapshots as
// quantised frames delta-encoded against a frame the receiver acknowledged.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "carom/game/match.hpp"
#include "net_generated.h"

namespace carom::protocol {

// 2: delta snapshots as a bit stream against a prediction, velocities in 1/4 unit/s.
// 3: event ticks are server ticks; events name own goals, the puck and draws;
//    the roster carries teams; a finished match stays on the wire a while.
// 4: sessions authenticated by a random 64-bit secret from Accepted carried by
//    every session packet (Packet.session_secret); random client ids; the
//    ConnectResponse padded like the request (no reply before acceptance is
//    larger than its request); DenyReason too_many_from_address.
inline constexpr std::uint32_t kProtocolVersion = 4;
inline constexpr std::size_t kMaxDatagramBytes = 1200;
// ConnectRequest and ConnectResponse are padded to at least this, so no
// reply before acceptance (Challenge, Denied, Accepted) is larger.
inline constexpr std::size_t kConnectRequestMinBytes = 256;
inline constexpr std::size_t kMaxNameBytes = 15;
// Quantisation: positions in 1/kPositionScale unit, velocities in
// 1/kVelocityScale unit/s. Velocities only extrapolate between snapshots: half
// a velocity step (1/8 unit/s) drifts by one position step in 125 ms.
inline constexpr double kPositionScale = 64.0;
inline constexpr double kVelocityScale = 4.0;

// Input sequence numbers count from 1 and wrap at 2^32 (after 2^32 - 1 comes
// 0). `a` comes after `b` when it is 1 .. kSequenceWindow ahead of it, modulo
// 2^32: about 4.8 hours of inputs at 60 Hz, far more than a client can send
// ahead, far less than the half of the circle where "ahead" becomes ambiguous.
inline constexpr std::uint32_t kSequenceWindow = 1u << 20;
constexpr bool sequence_after(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t ahead = a - b;  // modulo 2^32
    return ahead != 0 && ahead <= kSequenceWindow;
}

// Why a datagram was refused before any field was read.
enum class PacketError : std::uint8_t {
    too_short = 0,
    too_long,
    bad_identifier,
    malformed,  // flatbuffers::Verifier said no
    no_body,
    wrong_version,  // not this build's kProtocolVersion, where no answer is owed
    count_
};
std::string_view to_string(PacketError error);

// The Packet in `bytes`, verified; or why not. `bytes` must stay alive and
// be 8-byte aligned (receive buffers are).
struct VerifiedPacket {
    const net::Packet* packet = nullptr;
    PacketError error = PacketError::malformed;
};
VerifiedPacket verify_packet(std::span<const std::uint8_t> bytes);

// The cheap checks, before any verification: size and identifier (nullopt
// when they pass, else the error), no FlatBuffers verifier run.
std::optional<PacketError> precheck_packet(std::span<const std::uint8_t> bytes);
// Packet.protocol read with a bounds check of every offset on the way (root,
// vtable, field), but without the verifier: nullopt when an offset points
// outside `bytes`. Only for a quick refusal; fields are read after verify_packet.
std::optional<std::uint32_t> peek_protocol(std::span<const std::uint8_t> bytes);

// Finishes a Packet around `body` and returns its bytes (a view into the builder).
// `secret`: the session's (Accepted.session_secret), 0 before acceptance.
std::span<const std::uint8_t> finish_packet(flatbuffers::FlatBufferBuilder& builder,
                                            std::uint32_t client_id, net::Body type,
                                            flatbuffers::Offset<void> body,
                                            std::uint64_t secret = 0);

net::DiskQ quantise(const physics::Vec2& position, const physics::Vec2& velocity);
physics::Vec2 position_of(const net::DiskQ& disk);
physics::Vec2 velocity_of(const net::DiskQ& disk);

// A name as the server keeps it: printable ASCII, at most kMaxNameBytes.
std::string clean_name(std::string_view name);

// XXH3-64 of the map's FlatBuffers binary: both ends must hold the same map.
std::uint64_t map_hash(const game::Map& map);

// The quantised match state that snapshots carry.
struct Frame {
    std::uint64_t tick = 0;
    game::Phase phase = game::Phase::playing;
    std::array<std::uint32_t, 2> score{};
    std::uint64_t ticks_left = 0;
    std::uint64_t active_mask = 0;
    std::vector<net::DiskQ> disks;  // pucks first, then one per player slot
};
Frame frame_of(const game::Match& match);

struct RosterEntry {
    std::uint16_t slot = 0;
    bool active = false;
    std::string name;
    bool bot = false;
    std::uint32_t goals = 0;
    game::Team team = game::Team::left;
};

// What a snapshot carries besides the frame.
struct SnapshotExtras {
    std::uint32_t last_input_sequence = 0;
    std::uint32_t pong_id = 0;
    float server_tick_ms = 0.0F;
    const std::vector<RosterEntry>* roster = nullptr;  // null: unchanged
    std::span<const game::MatchEvent> events;          // ticks already server ticks
    std::uint64_t match_seed = 0;                      // sent in full snapshots
    std::uint64_t match_start_tick = 0;                // sent in full snapshots
    std::uint64_t session_secret = 0;                  // the receiving session's
};

// The delta streams of one room's newest frame, each encoded once per
// baseline: the clients of a room that acknowledged the same snapshot get the
// same stream, so the server encodes it once, not once per client. One per
// room: frames are told apart by tick, so reset() when a room's frames start
// over.
class DeltaStreams {
  public:
    // The stream of `frame` against `baseline` (same entity count, an earlier
    // tick), encoded on the first request for this pair. Valid until a
    // request for another frame, or reset().
    std::span<const std::uint8_t> of(const Frame& frame, const Frame& baseline);
    // Forget every stream (a room whose frames start again, as after a new match).
    void reset() { used_ = 0; }

  private:
    struct Entry {
        std::uint64_t baseline_tick = 0;
        std::vector<std::uint8_t> bytes;
    };
    std::uint64_t frame_tick_ = 0;
    std::vector<Entry> entries_;  // the first `used_` are for frame_tick_; capacity reused
    std::size_t used_ = 0;
};

// A Snapshot packet: full (every disk's quantised state in `updates`) when
// `baseline` is null or does not fit (other entity count, not an earlier
// tick, tick 0); else a delta: the `delta` bit stream of what differs from
// the frame predicted from `baseline` (schemas/PROTOCOL.md), taken from
// `streams` when given (the bytes are the same either way).
std::span<const std::uint8_t> encode_snapshot(flatbuffers::FlatBufferBuilder& builder,
                                              std::uint32_t client_id, const Frame& frame,
                                              const Frame* baseline, const SnapshotExtras& extras,
                                              DeltaStreams* streams = nullptr);

// The frame a snapshot describes; `baseline` is the frame of its
// baseline_tick (null for a full snapshot). nullopt with `error` set when the
// snapshot does not fit (wrong baseline, entity out of range, a delta stream
// that is truncated, oversized or has bytes left over...).
std::optional<Frame> decode_snapshot(const net::Snapshot& snapshot, const Frame* baseline,
                                     std::string& error);

}  // namespace carom::protocol
