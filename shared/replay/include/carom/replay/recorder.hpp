#pragma once
// A match that records itself: every join, leave and applied input goes to
// the replay as it happens, with a keyframe every few seconds and a final one
// before the footer. Used by `carom-replay record` and by the server.
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
    // The players join at tick 0. Throws like Match (bad map) and ReplayWriter
    // (file). `final_pause_ticks` goes to the header (Header::final_pause_ticks).
    MatchRecorder(const std::filesystem::path& path, game::Map map, std::uint64_t seed,
                  std::string producer, const std::vector<PlayerInfo>& players,
                  std::uint32_t final_pause_ticks = 0);
    // A recorder that was not finished flushes what it has: the file reads
    // up to there and says it has no footer.
    ~MatchRecorder() = default;

    const game::Match& match() const { return match_; }
    void join(game::Slot slot, std::string name, bool bot);
    void leave(game::Slot slot);
    // One tick; inputs per slot (those of empty slots are ignored). When the
    // file cannot be written (WriteError), the match has still stepped:
    // last_events() holds the tick's events and match() its state.
    std::span<const game::MatchEvent> step(std::span<const game::Input> inputs);
    std::span<const game::MatchEvent> last_events() const { return last_events_; }
    void flush() { writer_.flush(); }
    // Final keyframe and footer; the recorder takes no more ticks.
    Footer finish();
    bool finished() const { return finished_; }
    std::uint64_t bytes_written() const { return writer_.bytes_written(); }

  private:
    void keyframe();
    // Keeps the state of the last step before the first roster change after it.
    void settle();

    game::Match match_;
    ReplayWriter writer_;
    std::vector<game::Input> applied_;
    // The state after the last step, once a join or leave has changed the
    // match since (the final keyframe and the footer describe this state).
    std::optional<Keyframe> settled_;
    std::span<const game::MatchEvent> last_events_;  // into match_, until its next step
    bool finished_ = false;
};

}  // namespace carom::replay
