#pragma once
// Records a match as it is played. Whoever owns the game::Match (a server
// room, `carom-replay record`) steps it and tells the recorder what happened:
// each join or leave just before it is applied, and each step just after it
// ran. The recorder reads what it needs from the match (the inputs the step
// applied, the hash, keyframes) and writes it to the replay, with a keyframe
// every few seconds and a final one before the footer.
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "carom/replay/writer.hpp"

namespace carom::replay {

inline constexpr std::uint32_t kKeyframeTicks = 5 * game::kTickRate;

class MatchRecorder {
  public:
    // `match` is at tick 0 with `players` joined, or (format 3 on) at any
    // tick with `players` holding its slots: the file then starts from that
    // state (Header::start_tick), and a branch names its `parent`. When the
    // file cannot be created or written, write_error() says why
    // (ReplayWriter). `final_pause_ticks` goes to the header
    // (Header::final_pause_ticks); an older `format_version` is for tests of
    // the readers of old files. `work`: where the file's work runs (ReplayWriter).
    MatchRecorder(const std::filesystem::path& path, const game::Match& match, std::string producer,
                  const std::vector<game::RosterEntry>& players,
                  std::uint32_t final_pause_ticks = 0,
                  std::uint32_t format_version = kFormatVersion, FileWork work = {},
                  std::optional<ParentReplay> parent = std::nullopt);
    // A recorder that was not finished flushes what it has: the file reads
    // up to there and says it has no footer.
    ~MatchRecorder() = default;

    // Before `match.join(slot, name)` / `match.leave(slot)`: the change takes
    // effect before the next step.
    void joining(const game::Match& match, game::Slot slot, std::string name, bool bot);
    void leaving(const game::Match& match, game::Slot slot);
    // After `events = match.step(...)`. The error when the file cannot be
    // written; the match is not the recorder's, so it has stepped all the same.
    Status stepped(const game::Match& match, std::span<const game::MatchEvent> events);
    Status flush() { return writer_.flush(); }
    // Final keyframe and footer, of the state after the last step; the
    // recorder takes no more. The footer, or the write error (then the
    // recorder is not finished and the file has no footer).
    Result<Footer> finish(const game::Match& match);
    // After finish(): `done` runs where the file's work does, once the file is closed.
    void when_closed(WriteDone done) { writer_.when_closed(std::move(done)); }
    bool finished() const { return finished_; }
    std::uint64_t bytes_written() const { return writer_.bytes_written(); }
    Status write_error() const { return writer_.write_error(); }
    // What the file says of its match without reading it back: the header
    // and every join so far (a replay index's row).
    const Header& header() const { return header_; }
    const std::vector<game::RosterChange>& joins() const { return joins_; }

  private:
    Status keyframe(const game::Match& match);
    // Keeps the state of the last step before the first roster change after it.
    void settle(const game::Match& match);
    void check_open() const;

    Header header_;
    ReplayWriter writer_;
    std::vector<game::RosterChange> joins_;
    std::vector<game::Input> applied_;  // scratch: per slot, what the last step applied
    // The state after the last step, once a join or leave has changed the
    // match since (the final keyframe and the footer describe this state).
    std::optional<Keyframe> settled_;
    bool finished_ = false;
};

}  // namespace carom::replay
