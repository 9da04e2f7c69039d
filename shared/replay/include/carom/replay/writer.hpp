#pragma once
// Writes a replay as it happens: ticks are batched into chunks (one per second
// of game time at most, or sooner on flush()), each chunk is written whole and
// flushed to the OS, so a process killed at any moment leaves a file that
// reads up to its last chunk.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "carom/replay/replay.hpp"

namespace carom::replay {

class ReplayWriter {
  public:
    // Creates (truncates) the file and writes the preamble and header.
    // Throws std::runtime_error naming the file and the reason.
    ReplayWriter(const std::filesystem::path& path, const Header& header);
    ~ReplayWriter();
    ReplayWriter(const ReplayWriter&) = delete;
    ReplayWriter& operator=(const ReplayWriter&) = delete;

    // Before the step of `tick`.
    void add_roster(const RosterChange& change);
    // After the step of `tick` (ticks count up from 1 without gaps):
    // `applied[slot]` is the input the match applied (idle for empty slots).
    void add_tick(std::uint64_t tick, std::span<const game::Input> applied, std::uint64_t hash,
                  std::span<const game::MatchEvent> events);
    void add_keyframe(const Keyframe& keyframe);
    // Writes what is pending as a chunk and hands it to the OS.
    void flush();
    // Flushes, writes the footer and closes the file.
    void finish(const Footer& footer);

    const std::filesystem::path& path() const { return path_; }
    std::uint64_t bytes_written() const { return bytes_written_; }

  private:
    struct Pending;
    void write_chunk(std::span<const std::uint8_t> payload);

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    std::uint64_t bytes_written_ = 0;
    std::uint32_t ticks_per_chunk_;
    std::vector<game::Input> held_;  // per slot: the input as of the last recorded change
    std::unique_ptr<Pending> pending_;
};

}  // namespace carom::replay
