#pragma once
// The client's copy of the room's match, exact: restored from a FullState,
// then stepped with the inputs each ServerUpdate says the server applied,
// with the same game::Match code, so it is the server's bit for bit. Each
// update carries the low bits of the server's state hash after its tick: a
// copy that drifted fails the check, and the copy goes back to where it was
// (the update's authenticity is the caller's to check first, Connection).
// It also keeps where every disk was over the last ticks it held, for
// the interpolation of what is drawn in the past. No sockets, no clocks.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/protocol/full_state.hpp"
#include "carom/protocol/update.hpp"
#include "carom/result.hpp"

namespace carom::client {

// A match event, stamped with the server tick of the step that made it.
using ServerEvent = game::MatchEvent;

// Every disk of the match after one held server tick, as the match numbers
// them: its pucks, its player slots (a free slot's disk is parked off the
// field) and the map's movable discs.
struct Moment {
    std::uint64_t tick = 0;
    std::vector<game::DiskMotion> pucks;
    std::vector<game::DiskMotion> players;
    std::vector<game::DiskMotion> discs;
};

class Replica {
  public:
    // About a second at 60 Hz: more than the longest interpolation delay.
    static constexpr std::size_t kHistoryTicks = 64;

    // Keeps the Moments of the last `history_ticks` held ticks (0: none).
    explicit Replica(game::CheckedMap map, std::size_t history_ticks = kHistoryTicks);

    // Takes the room's state; the error when it does not fit the map, or
    // restores to another hash than the server's (the copy then holds nothing).
    Status restore(const protocol::RoomState& state);
    // What apply() did with an update.
    enum class Applied : std::uint8_t {
        taken,     // the copy is at the update's tick
        old,       // not newer than the held tick: nothing to do
        not_held,  // no state held, or a baseline after the held tick or
                   // whose sequence is no longer known: cannot be stepped
        mismatch,  // stepped, but the state hash disagreed with update.state
                   // or a change did not fit the match: the copy is as it was
    };
    // Steps from the held tick to update.tick: update.tick - tick() steps.
    // A player's copy needs the baseline to be a tick it held (its input
    // sequence there); a spectator's, whose updates carry no sequence of its
    // own, steps from any held tick at or after the baseline (the update
    // carries every change after it).
    Applied apply(const protocol::Update& update, bool spectator = false);
    const game::Map& map() const { return map_.get(); }
    const game::CheckedMap& checked_map() const { return map_; }
    // A state older than the held one came (a FullState resent because the
    // server had not heard it acknowledged): the server's updates start from
    // its tick until it hears of a newer one, and stepping from the held
    // tick needs only the client's input sequence at that tick, which it
    // says. Noted when the tick is among those whose sequences are kept and
    // none is known for it.
    void note_older_state(std::uint64_t tick, std::uint32_t last_input_sequence);
    // Forget the state (the client then asks for a FullState).
    void drop() { held_ = false; }

    bool holds() const { return held_; }
    std::uint64_t tick() const { return tick_; }  // the server tick of the held state
    const game::Match& match() const { return *match_; }
    // The newest input of the client's the server had applied by tick().
    std::uint32_t last_input_sequence() const { return sequence_; }
    // The tick that input was applied on, as far as the updates held tell (a
    // FullState: its own tick; updates lost between: the newest inputs taken
    // first, then the repeats).
    std::uint64_t last_input_tick() const { return sequence_tick_; }
    std::uint64_t match_seed() const { return seed_; }
    std::uint64_t match_start_tick() const { return start_tick_; }
    bool bot(game::Slot slot) const { return slot < bots_.size() && bots_[slot]; }
    // The events of the steps since the last call (server ticks), oldest first.
    std::vector<ServerEvent> take_events();
    // The held ticks' moments, oldest first, ticks increasing (a gap where
    // the copy was dropped and restored later). Kept when the state is dropped.
    const std::deque<Moment>& history() const { return history_; }

  private:
    struct Saved {
        std::uint64_t tick, seed, start_tick, halted_since;
        std::uint32_t sequence;
        std::vector<bool> bots;
        game::MatchState match;
        std::size_t events;
    };
    Saved save() const;
    void back_to(const Saved& saved);
    // False when a roster change or a match start does not fit the match.
    bool step_to(const protocol::Update& update);
    bool start_match(const protocol::MatchStart& start);
    void note_sequence(std::uint64_t tick, std::uint32_t sequence);
    std::optional<std::uint32_t> sequence_at(std::uint64_t tick) const;
    void record_moment(std::uint64_t tick);
    void forget_moments_after(std::uint64_t tick);

    game::CheckedMap map_;
    std::unique_ptr<game::Match> match_;
    bool held_ = false;
    std::uint64_t tick_ = 0;
    std::uint64_t seed_ = 0;
    std::uint64_t start_tick_ = 0;
    std::uint64_t halted_since_ = 0;
    std::uint32_t sequence_ = 0;
    std::uint64_t sequence_tick_ = 0;
    std::vector<bool> bots_;
    std::vector<game::Input> inputs_;  // scratch: one per slot
    std::vector<ServerEvent> events_;
    std::size_t history_ticks_;
    std::deque<Moment> history_;
    // The sequence at recent held ticks: updates count from their baseline's.
    struct HeldSequence {
        std::uint64_t tick = 0;
        std::uint32_t sequence = 0;
        bool valid = false;
    };
    std::vector<HeldSequence> applied_;
};

}  // namespace carom::client
