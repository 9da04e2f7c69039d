#pragma once
// Taking over a player of a replay at a tick: the match goes on from the
// replay's exact state there, one slot steered by its host (a person's keys,
// a caller's inputs), the others by the game's bot or by the inputs the
// replay recorded for them (until it ends, then the bot). What is played is
// recorded as a branch: a replay that starts from that state, names its
// parent (file hash and tick) and verifies alone. No terminal, clock or
// sockets: carom-replay play and the tests drive it.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "carom/replay/recorder.hpp"
#include "carom/replay/replay.hpp"
#include "carom/result.hpp"

namespace carom::replay_view {

// Who steers the slots not taken over.
enum class Others : std::uint8_t {
    bot,      // the game's bot, from the branch tick on
    recorded  // the replay's inputs (and joins and leaves), then the bot after its last tick
};

// Who holds each slot of `replay` after `tick`: the header's players and
// every join and leave up to that tick, by slot.
std::vector<game::RosterEntry> roster_at(const replay::Replay& replay, std::uint64_t tick);

// Why `slot` cannot be taken over at `tick` of `replay` (past the last
// tick, before the first, a slot out of range or nobody's there), or ok.
Status can_take_over(const replay::Replay& replay, std::uint64_t tick, game::Slot slot);

class Takeover {
  public:
    // `at` is the replay's match at its tick (a seek engine's); `parent`
    // names the replay's file. The branch is written to `path` (never over
    // an existing file). The error when the slot cannot be taken over there
    // (can_take_over) or the file cannot be created.
    static Result<Takeover> start(const replay::Replay& replay, replay::ParentReplay parent,
                                  const game::Match& at, game::Slot slot, Others others,
                                  const std::filesystem::path& path);

    // One tick: the others' joins and leaves (recorded), their inputs, the
    // step with `input` for the taken slot, recorded. The write error (the
    // match has stepped all the same).
    Status step(game::Input input);
    // The final keyframe and footer; the takeover takes no more steps.
    Result<replay::Footer> finish();

    const game::Match& match() const { return *match_; }
    game::Slot slot() const { return slot_; }
    Others others() const { return others_; }
    std::uint64_t start_tick() const { return start_tick_; }
    const std::filesystem::path& path() const { return path_; }
    // The newest goal and kick-off of the branch, if any (for the banner).
    const game::MatchEvent* last_goal() const { return last_goal_ ? &*last_goal_ : nullptr; }
    std::optional<std::uint64_t> last_kickoff() const { return last_kickoff_; }
    // Whether the others play the replay's inputs on this tick (false once it has ended).
    bool playing_recorded() const;

  private:
    Takeover(const replay::Replay& replay, std::unique_ptr<game::Match> match,
             std::unique_ptr<replay::MatchRecorder> recorder, game::Slot slot, Others others,
             std::filesystem::path path);
    void apply_recorded_roster(std::uint64_t tick);

    const replay::Replay* replay_;
    std::unique_ptr<game::Match> match_;  // its address stays put for the recorder
    std::unique_ptr<replay::MatchRecorder> recorder_;
    game::Slot slot_;
    Others others_;
    std::uint64_t start_tick_;
    std::filesystem::path path_;
    std::vector<game::Input> held_;  // the replay's inputs as of the last tick (recorded)
    std::size_t next_input_ = 0;
    std::size_t next_roster_ = 0;
    std::vector<game::Input> inputs_;  // scratch: this tick's inputs
    std::optional<game::MatchEvent> last_goal_;
    std::optional<std::uint64_t> last_kickoff_;
    bool finished_ = false;
};

}  // namespace carom::replay_view
