#pragma once
// Writes a replay as it happens: ticks are batched into chunks (one per second
// of game time at most, or sooner on flush()), each chunk is written whole and
// flushed to the OS, so a process killed at any moment leaves a file that
// reads up to its last chunk.
//
// The file's work (compressing a chunk, writing it, closing the file) runs in
// the caller's thread, or, given a FileWork, wherever it runs its jobs: a
// server's tick then only batches ticks. The OS refusing to create, write or
// flush the file (disk full, directory gone or read-only...) is an error
// that names the file and the reason; it is the writer's from then on
// (write_error(), and every later call's), and what was written before
// reads up to its last whole chunk. Run in the caller's thread, it is the
// error of the call that ran into it; given a FileWork, of the writer's
// next call (or finish()'s `done`).
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "carom/replay/replay.hpp"
#include "carom/result.hpp"

namespace carom::replay {

// Fault injection for tests: called with the file's path before every write
// to the OS; a non-zero errno fails that write as the OS would have (ENOSPC,
// EIO...). An empty function (the default) injects nothing.
void set_write_fault(std::function<int(const std::filesystem::path&)> fault);

// Runs a writer's file jobs, one at a time, in the order given (a background
// thread's queue); empty: the caller runs them itself.
using FileWork = std::function<void(std::function<void()> job)>;
// The file is closed, whole (ok) or not (the first write error).
using WriteDone = std::function<void(const Status& closed)>;

class ReplayWriter {
  public:
    // Creates the file (never over an existing one) and writes the preamble
    // and header, in the header's format version (kFormatVersion unless a
    // test asks for an older one). When it cannot, write_error() says why
    // (given a FileWork, once the file work has tried). A match that starts
    // from a state (header.start_tick, format 3 on) gives that state's
    // keyframe first, before any tick.
    ReplayWriter(const std::filesystem::path& path, const Header& header, FileWork work = {});
    ~ReplayWriter();
    ReplayWriter(const ReplayWriter&) = delete;
    ReplayWriter& operator=(const ReplayWriter&) = delete;

    // Before the step of `tick`.
    void add_roster(const game::RosterChange& change);
    // After the step of `tick` (ticks count up from 1 without gaps):
    // `applied[slot]` is the input the match applied (idle for empty slots).
    // The write error, when the tick completes a chunk (flush()).
    Status add_tick(std::uint64_t tick, std::span<const game::Input> applied, std::uint64_t hash,
                    std::span<const game::MatchEvent> events);
    Status add_keyframe(const Keyframe& keyframe);
    // Writes what is pending as a chunk and hands it to the OS.
    Status flush();
    // Flushes, writes the footer and closes the file; the writer takes no
    // more. On a write error it is not finished.
    Status finish(const Footer& footer);
    // After finish(): `done` runs where the file's work does, once the file is closed.
    void when_closed(WriteDone done);

    const std::filesystem::path& path() const { return path_; }
    // What reached the OS so far (the file's work may still have chunks to write).
    std::uint64_t bytes_written() const;
    // The first write error of the file's work, once it has run into one.
    Status write_error() const;

  private:
    struct Pending;
    struct File;
    // Runs `job` on the file where its work runs; the error of an earlier
    // job that failed (then `job` does not run), or of `job` when it runs here.
    Status run(std::function<Status(File&)> job);

    std::filesystem::path path_;
    std::shared_ptr<File> file_;  // shared with the jobs not yet run
    FileWork work_;
    bool finished_ = false;
    std::uint32_t format_version_;
    std::uint32_t ticks_per_chunk_;
    std::uint64_t start_tick_;
    bool started_ = false;           // the first keyframe or tick was added
    std::vector<game::Input> held_;  // per slot: the input as of the last recorded change
    std::unique_ptr<Pending> pending_;
};

}  // namespace carom::replay
