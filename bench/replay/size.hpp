#pragma once
// Where a replay file's bytes go, by reading its chunks (schemas/PROTOCOL.md):
// the input stream (what a match needs to be re-played: applied inputs,
// joins/leaves, game events) against everything else (per-tick hashes,
// keyframes, the header with its embedded map, the footer, and framing).
#include <cstdint>
#include <span>

#include "carom/replay/replay.hpp"

namespace carom::bench {

// The input stream should stay small enough to record every match.
inline constexpr double kTargetBytesPerPlayerMinute = 2000.0;  // 2 KB at 60 Hz
// Doom's demo format: 4 bytes per player per tic, 35 tics per second.
inline constexpr double kDoomBytesPerPlayerMinute = 4.0 * 35.0 * 60.0;  // 8.4 KB

struct ByteBreakdown {
    // The input stream. Vectors count with their 4-byte length prefix, so a
    // batch with no roster change or event still costs 4 B for each.
    std::uint64_t inputs = 0;  // TickBatch `inputs` vectors, with their length prefix
    std::uint64_t roster = 0;  // TickBatch `roster`: offset vectors, tables, vtables, names
    std::uint64_t events = 0;  // TickBatch `events`: offset vectors, tables, vtables
    // The rest.
    std::uint64_t hashes = 0;     // TickBatch `hashes` vectors, with their length prefix
    std::uint64_t keyframes = 0;  // Keyframe chunk payloads
    std::uint64_t header = 0;     // the Header chunk payload (map included)
    std::uint64_t footer = 0;     // the Footer chunk payload
    // Preamble, chunk size + checksum fields, and in TickBatch chunks the
    // FlatBuffers root, identifier, Chunk and TickBatch tables and alignment.
    std::uint64_t framing = 0;

    std::uint64_t input_stream() const { return inputs + roster + events; }
    std::uint64_t rest() const { return hashes + keyframes + header + footer + framing; }
    std::uint64_t total() const { return input_stream() + rest(); }
};

// Every byte of `file` counted once. Throws std::runtime_error if the chunks
// do not parse (the file was read by the library first, so they should).
ByteBreakdown measure_bytes(std::span<const std::uint8_t> file);

// Sum over ticks 1..last of the players in the match during that tick's step:
// the header's players, then the roster changes (applied before their tick).
std::uint64_t player_ticks(const replay::Replay& replay);
// The same sum, counted from Match::active() while re-simulating; a check on
// the first.
std::uint64_t player_ticks_resimulated(const replay::Replay& replay);

inline double player_minutes(std::uint64_t player_ticks) {
    return static_cast<double>(player_ticks) / (60.0 * game::kTickRate);
}

}  // namespace carom::bench
