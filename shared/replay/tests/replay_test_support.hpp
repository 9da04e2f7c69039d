#pragma once
// Records small bot matches to temporary files for the replay tests.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <stdexcept>
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
// A match and its recorder, stepped together: the owner's side of
// MatchRecorder (join, leave, step), as a server room does it.
class RecordedMatch {
  public:
    RecordedMatch(const std::filesystem::path& path, game::Map map, std::uint64_t seed,
                  const std::vector<game::RosterEntry>& players,
                  std::uint32_t format_version = kFormatVersion)
        : match_(std::move(map), seed),
          recorder_(path, joined(match_, players), "replay tests", players, 0, format_version) {}

    const game::Match& match() const { return match_; }
    void join(game::Slot slot, const std::string& name, bool bot) {
        recorder_.joining(match_, slot, name, bot);
        match_.join(slot, name);
    }
    void leave(game::Slot slot) {
        recorder_.leaving(match_, slot);
        match_.leave(slot);
    }
    void step(std::span<const game::Input> inputs) {
        if (const Status recorded = recorder_.stepped(match_, match_.step(inputs)); !recorded)
            throw std::runtime_error(recorded.error().message);
    }
    // Every slot's bot decides.
    void step_bots() {
        std::vector<game::Input> in(match_.slot_count());
        for (game::Slot s = 0; s < in.size(); ++s)
            in[s] = game::bot_input(match_, s);
        step(in);
    }
    Footer finish() {
        Result<Footer> footer = recorder_.finish(match_);
        if (!footer) throw std::runtime_error(footer.error().message);
        return *footer;
    }

  private:
    static const game::Match& joined(game::Match& match,
                                     const std::vector<game::RosterEntry>& players) {
        for (const game::RosterEntry& p : players)
            match.join(p.slot, p.name);
        return match;
    }
    game::Match match_;
    MatchRecorder recorder_;
};

inline void record_match(const std::filesystem::path& path, std::uint64_t ticks, bool finish = true,
                         std::uint32_t format_version = kFormatVersion) {
    RecordedMatch rec(path, game::test::small_map(2), 11,
                      {{0, "a", true}, {2, "b", true}, {1, "c", true}}, format_version);
    for (std::uint64_t t = 0; t < ticks; ++t) {
        if (t == 100) rec.leave(1);
        if (t == 200) rec.join(3, "d", true);
        rec.step_bots();
    }
    if (finish) rec.finish();
}

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace carom::replay::test
