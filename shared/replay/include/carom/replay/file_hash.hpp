#pragma once
// How a branch names its parent: the XXH3-128 of the parent's whole file
// (replay.hpp, FileHash).
#include <cstdint>
#include <filesystem>
#include <span>

#include "carom/replay/replay.hpp"
#include "carom/result.hpp"

namespace carom::replay {

FileHash file_hash(std::span<const std::uint8_t> bytes);
// The hash of the file at `path`; the error when it cannot be read or is
// larger than a replay may be (kMaxReplayBytes).
Result<FileHash> file_hash(const std::filesystem::path& path);

}  // namespace carom::replay
