#pragma once
// The replay viewer's position in a match: any tick of a replay, reached by
// restoring the nearest keyframe at or before it and re-simulating forward
// (or by stepping on from where it is, when that is shorter). No terminal,
// no clock and no sockets: carom-replay play and cast, the replay page
// (through carom.h's carom_viewer) and the tests and benchmarks drive it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "carom/replay/resimulation.hpp"

namespace carom::replay_view {

// A goal of the replay: the event of the step that scored (the score has
// changed at its tick).
using GoalMark = game::MatchEvent;

class SeekEngine {
  public:
    // The replay must outlive the engine. Starts at its first tick (0, or a branch's start).
    explicit SeekEngine(const replay::Replay& replay);

    const replay::Replay& replay() const { return replay_; }
    const game::Match& match() const { return sim_->match(); }
    std::uint64_t tick() const { return sim_->tick(); }
    // The last tick the file holds (its end, or where a damaged file stops).
    std::uint64_t last_tick() const { return replay_.last_tick(); }

    // Moves to `target` (clamped to [first tick, last_tick()]: a branch
    // starts past 0); the error, at the
    // tick it stopped on, when the file asks for something the match refuses.
    Status seek(std::uint64_t target);

    // What the last seek cost: ticks stepped, and whether it restored a keyframe.
    std::uint64_t last_seek_steps() const { return last_steps_; }
    bool last_seek_restored() const { return last_restored_; }

    const std::vector<GoalMark>& goals() const { return goals_; }
    // The first goal after / the last goal before `tick`, if any.
    std::optional<std::uint64_t> next_goal(std::uint64_t tick) const;
    std::optional<std::uint64_t> previous_goal(std::uint64_t tick) const;
    // The newest goal at or before `tick`, if any.
    const GoalMark* goal_at_or_before(std::uint64_t tick) const;
    // The newest kick-off at or before `tick` (0 when none: the match starts with one).
    std::uint64_t kickoff_at_or_before(std::uint64_t tick) const;

  private:
    // The keyframe to restore for `target`: the newest at or before it, or nullptr (the start).
    const replay::Keyframe* keyframe_for(std::uint64_t target) const;
    void restart(const replay::Keyframe* keyframe);

    const replay::Replay& replay_;
    game::CheckedMap map_;  // the header's map, checked once for every restart
    std::optional<replay::Resimulation> sim_;
    std::vector<GoalMark> goals_;
    std::vector<std::uint64_t> kickoffs_;
    std::uint64_t last_steps_ = 0;
    bool last_restored_ = false;
};

// "m:ss.t" for a tick at `tick_rate` (tenths rounded down).
std::string clock_text(std::uint64_t tick, std::uint32_t tick_rate);
// The timeline's time: "m:ss.t / m:ss.t", the playhead and the length.
std::string timeline_text(std::uint64_t position, std::uint64_t length, std::uint32_t tick_rate);
// Parses "SECONDS", "M:SS" or "M:SS.t" into ticks; nullopt when malformed.
std::optional<std::uint64_t> parse_time(const std::string& text, std::uint32_t tick_rate);

// Length of the virtual timeline: the file's ticks, then the final whistle
// (the header's final_pause_ticks, at least one second) when the match finished.
std::uint64_t timeline_length(const replay::Replay& replay);

// The slot last named `name` (at the start or in a join), if any.
std::optional<game::Slot> find_player(const replay::Replay& replay, const std::string& name);

}  // namespace carom::replay_view
