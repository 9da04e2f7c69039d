#pragma once
// Records small bot matches to temporary files for the replay tests.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "carom/game/bot.hpp"
#include "carom/replay/recorder.hpp"
#include "test_support.hpp"

namespace carom::replay::test {

// A file path under the system temp dir, removed when the object goes.
class TempFile {
  public:
    explicit TempFile(const std::string& stem)
        : path_(std::filesystem::temp_directory_path() /
                (stem + "-" + std::to_string(::getpid()) + ".crpl")) {}
    ~TempFile() { std::filesystem::remove(path_); }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// A 2 v 2 bot match on the small test map; one player leaves and another
// joins mid-match. Stops after `ticks` (finished with a footer if `finish`).
inline void record_match(const std::filesystem::path& path, std::uint64_t ticks,
                         bool finish = true) {
    MatchRecorder rec(path, game::test::small_map(2), 11, "replay tests",
                      {{0, "a", true}, {2, "b", true}, {1, "c", true}});
    std::vector<game::Input> in(rec.match().slot_count());
    for (std::uint64_t t = 0; t < ticks; ++t) {
        if (t == 100) rec.leave(1);
        if (t == 200) rec.join(3, "d", true);
        for (game::Slot s = 0; s < in.size(); ++s) in[s] = game::bot_input(rec.match(), s);
        rec.step(in);
    }
    if (finish) rec.finish();
}

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace carom::replay::test
