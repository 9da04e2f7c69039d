#pragma once
// Reads a replay file. Every chunk is checked (size, checksum, FlatBuffers
// verifier, tick order) before anything in it is used. A file that is cut or
// damaged after its header reads up to its last good chunk, and the problem is
// reported with its byte offset; a file whose start is unusable is refused.
#include <cstdint>
#include <filesystem>
#include <span>

#include "carom/replay/replay.hpp"
#include "carom/result.hpp"

namespace carom::replay {

// The largest file read, checked before reading it: a 24-hour match (the
// longest the map limits allow) with bots takes about 150 MB. A file holds
// no more ticks than its size allows and input changes in (tick, slot)
// order, so the memory a crafted file can take is a few times its size,
// and the time to verify it is bounded by its ticks.
inline constexpr std::uint64_t kMaxReplayBytes = 256u << 20;

// A file whose start is unusable is an error, "at byte N: why"; a file
// read up to a problem is a Replay whose `problem` says where and why.
Result<Replay> read_replay(const std::filesystem::path& path);
Result<Replay> read_replay(std::span<const std::uint8_t> bytes);

}  // namespace carom::replay
