#pragma once
// Your own disk, predicted: the same game::Match the server steps, restored
// from the client's exact copy of the room's match (client::Replica) each
// time it moves on, and stepped again with the inputs the server has not
// applied yet (rewind and replay). No sockets and no clocks: inputs and
// states come in by sequence number.
//
// The copy is the server's match bit for bit, so the prediction starts from
// exactly what the server had, and it stays the server's as long as what
// it cannot know (the other players' inputs still on their way) does not
// matter: by default the others keep the inputs they hold and the whole
// world is stepped, so your disk meets them, and the puck, where the server
// will; with `others_hold_inputs` false they are ghosts your disk passes
// through, as before the copy was exact.
#include <cstdint>
#include <deque>
#include <optional>

#include "carom/game/match.hpp"

namespace carom::play {

struct PredictorConfig {
    // A correction farther than this (map units) snaps; a nearer one is
    // smoothed: the drawn disk closes the gap by `smoothing` of it per tick.
    double snap_units = 4.0;
    double smoothing = 0.2;
    // A correction the eye sees: about a braille dot at 80 columns.
    double visible_units = 0.5;
    std::size_t max_pending = 128;  // inputs kept awaiting the server
    bool others_hold_inputs = true;
};

struct PredictorStats {
    std::uint64_t frames = 0;
    std::uint64_t exact = 0;        // the server's state agreed with the prediction, bit for bit
    std::uint64_t corrections = 0;  // it did not: restarted from it
    std::uint64_t visible = 0;      // corrections that moved the drawn disk visibly
    std::uint64_t snaps = 0;
};

class Predictor {
  public:
    // Plays on the client's own checked map (the copy's). Throws
    // std::invalid_argument when the slot is out of range.
    Predictor(game::CheckedMap map, game::Slot slot, PredictorConfig config = {});

    // The input sent with `sequence` (consecutive, from 1): the prediction
    // steps one tick with it.
    void apply_input(std::uint32_t sequence, game::Input input);
    // The room's match, exactly, after the server applied our inputs up to
    // `last_applied` (0: none yet).
    void on_state(const game::Match& server, std::uint32_t last_applied);

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
        std::optional<physics::DiskState> after;  // own disk once stepped
    };

    void step(Pending& pending);

    PredictorConfig config_;
    game::Match match_;
    game::Slot slot_;
    std::deque<Pending> pending_;
    std::vector<game::Input> inputs_;  // scratch: one per slot
    game::Vec2 offset_{};
    bool ready_ = false;
    PredictorStats stats_;
};

}  // namespace carom::play
