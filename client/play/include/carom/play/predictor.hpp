#pragma once
// Your own disk, predicted: the same game::Match the server steps, restored
// from each authoritative frame and stepped again with the inputs the server
// has not applied yet (rewind and replay). No sockets and no clocks: inputs
// and frames come in by sequence number.
//
// Exact where it can be: the server keeps full precision, snapshots carry
// positions in 1/64 unit and velocities in 1/4 unit/s. When the frame's disk
// equals the quantised prediction for the same input, the prediction is kept
// at full precision (it is what the server computed: same code, same start,
// same inputs); only a disagreement restarts it from the quantised values.
// So from a kick-off (disks at their spawns, at rest: exactly quantised) the
// predicted disk is the server's bit for bit until something touches it.
#include <cstdint>
#include <deque>
#include <optional>

#include "carom/game/match.hpp"
#include "carom/protocol/net.hpp"

namespace carom::play {

struct PredictorConfig {
    // A correction farther than this (map units) snaps; a nearer one is
    // smoothed: the drawn disk closes the gap by `smoothing` of it per tick.
    double snap_units = 4.0;
    double smoothing = 0.2;
    // A correction the eye sees: about a braille dot at 80 columns.
    double visible_units = 0.5;
    std::size_t max_pending = 128;  // inputs kept awaiting the server
};

struct PredictorStats {
    std::uint64_t frames = 0;
    std::uint64_t exact = 0;        // the frame agreed with the prediction
    std::uint64_t corrections = 0;  // it did not: restarted from the frame
    std::uint64_t visible = 0;      // corrections that moved the drawn disk visibly
    std::uint64_t snaps = 0;
    std::uint64_t rejected = 0;  // frames that did not fit the map
};

class Predictor {
  public:
    // The match that full snapshots name (`match_seed`, `match_start_tick`):
    // a new one needs a new Predictor. Throws std::invalid_argument when the
    // map is not playable or the slot is out of range.
    Predictor(const game::Map& map, std::uint64_t match_seed, std::uint64_t match_start_tick,
              game::Slot slot, PredictorConfig config = {});

    // The input sent with `sequence` (consecutive, from 1): the prediction
    // steps one tick with it.
    void apply_input(std::uint32_t sequence, game::Input input);
    // An authoritative frame, after the server applied our inputs up to
    // `last_applied` (0: none yet). A frame that does not fit is counted and ignored.
    void on_frame(const protocol::Frame& frame, std::uint32_t last_applied);
    // The SERVER tick of a goal event (for the length of the pause). Events
    // ride one snapshot and are lost with it: without one, the pause is
    // taken to have begun at the first frame that shows it.
    void note_goal(std::uint64_t server_tick) { goal_tick_ = server_tick; }
    std::uint64_t match_start_tick() const { return start_tick_; }

    bool ready() const { return ready_; }
    // The predicted disk, exactly as simulated.
    const physics::DiskState& disk() const;
    // Where to draw it: the prediction plus what is left of a smoothed correction.
    game::Vec2 drawn_position() const { return disk().position + offset_; }
    // The prediction made for input `sequence`, if still held.
    std::optional<game::Vec2> predicted_at(std::uint32_t sequence) const;
    const game::Match& match() const { return match_; }
    const PredictorStats& stats() const { return stats_; }

  private:
    struct Pending {
        std::uint32_t sequence;
        game::Input input;
        std::optional<game::PlayerSnapshot> after;  // own state once stepped
    };

    void step(Pending& pending);
    game::MatchState state_of(const protocol::Frame& frame, const Pending* agreed) const;
    std::uint32_t pause_ticks_left(std::uint64_t frame_tick) const;

    PredictorConfig config_;
    game::Match match_;
    game::Slot slot_;
    std::deque<Pending> pending_;
    std::vector<game::Input> inputs_;  // scratch: one per slot
    std::uint64_t start_tick_;
    std::uint64_t rng_at_start_;  // the match's generator once built (before any kick-off)
    std::optional<std::uint64_t> goal_tick_;   // server tick, from the event
    std::uint64_t last_playing_tick_ = 0;      // newest frame seen in play
    std::optional<std::uint64_t> pause_seen_;  // first frame seen in the current goal pause
    game::Vec2 offset_{};
    bool ready_ = false;
    PredictorStats stats_;
};

}  // namespace carom::play
