#pragma once
// Reads a replay file. Every chunk is checked (size, checksum, FlatBuffers
// verifier, tick order) before anything in it is used. A file that is cut or
// damaged after its header reads up to its last good chunk, and the problem is
// reported with its byte offset; a file whose start is unusable is refused.
#include <filesystem>
#include <span>
#include <variant>

#include "carom/replay/replay.hpp"

namespace carom::replay {

std::variant<Replay, ReadProblem> read_replay(const std::filesystem::path& path);
std::variant<Replay, ReadProblem> read_replay(std::span<const std::uint8_t> bytes);

}  // namespace carom::replay
