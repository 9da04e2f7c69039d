#pragma once
// Where a replay file's bytes go, part by part, for carom-bench replay: the
// input stream (applied inputs, joins and leaves, game events) against the
// rest (tick hashes, keyframes, the header with its map, the footer and the
// framing: preamble, chunk sizes and checksums, encodings, batch ticks).
#include <cstdint>
#include <span>

#include "carom/result.hpp"

namespace carom::replay {

struct FileBytes {
    std::uint64_t inputs = 0;
    std::uint64_t roster = 0;
    std::uint64_t events = 0;
    std::uint64_t hashes = 0;
    std::uint64_t keyframes = 0;  // as stored (compressed from format 2 on)
    std::uint64_t header = 0;     // as stored, the map included
    std::uint64_t footer = 0;
    std::uint64_t framing = 0;

    std::uint64_t input_stream() const { return inputs + roster + events; }
    std::uint64_t total() const {
        return input_stream() + hashes + keyframes + header + footer + framing;
    }
};

// Every byte of a format 2 file counted once (format 1 files are counted by
// the benchmark itself, from their FlatBuffers tables). Fails on a file that
// does not read whole.
Result<FileBytes> count_file_bytes(std::span<const std::uint8_t> file);

}  // namespace carom::replay
