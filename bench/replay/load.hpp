#pragma once
// A replay file for the benchmark: its bytes, and the replay the library reads
// from those same bytes (so the size accounting and the re-simulation see one
// and the same file).
#include <cstdint>
#include <string>
#include <vector>

#include "carom/replay/replay.hpp"
#include "carom/result.hpp"

namespace carom::bench {

struct LoadedReplay {
    std::string path;  // as given on the command line
    std::vector<std::uint8_t> bytes;
    replay::Replay replay;
    double read_ms;  // reading the file and replay::read_replay on its bytes, once
};

// Fails naming the file when it cannot be read, or when the library does not
// read it whole (a cut or damaged file is no benchmark).
Result<LoadedReplay> load_replay(const std::string& path);

}  // namespace carom::bench
