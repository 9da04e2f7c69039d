#pragma once
// What a room's match did over its recent server ticks, as ServerUpdates
// tell it: before each step the roster changes, in it the inputs that
// changed, after it a new match if one started. A client that holds the
// match as it was after tick B is brought to tick T by the records of
// (B, T]; older baselines get a FullState instead.
#include <cstdint>
#include <deque>
#include <vector>

#include "carom/protocol/update.hpp"

namespace carom::server {

class TickHistory {
  public:
    // Records kept: the oldest baseline an update can start from is this
    // many ticks before the newest.
    explicit TickHistory(std::uint32_t ticks_kept) : ticks_kept_(ticks_kept) {}

    // Between ticks: a join or leave, made before the next step. Its tick
    // is that of the next record.
    void note_roster(game::RosterChange change) { pending_roster_.push_back(std::move(change)); }
    // Server tick `tick`: the input changes its step applied (their tick is
    // set here), or `stepped` false when the room did not step.
    void record(std::uint64_t tick, std::span<const protocol::InputChange> inputs, bool stepped);
    // After the record of its tick: the room started a new match.
    void note_match_start(protocol::MatchStart start);
    // The room's state at the newest tick was replaced rather than stepped
    // (a fault in the step): no update can reach across it.
    void note_replaced() { replaced_tick_ = newest_tick(); }

    std::uint64_t newest_tick() const { return records_.empty() ? 0 : records_.back().tick; }
    // Whether an update can bring a client from `baseline` to the newest
    // tick: every record since is held, no state was replaced, at most one
    // match started.
    bool covers(std::uint64_t baseline) const;
    // Fills the inputs, roster changes, match start and halted_since of an
    // update from `update.baseline` to the newest tick (covers() holds).
    void fill(protocol::Update& update) const;

  private:
    struct Record {
        std::uint64_t tick = 0;
        bool stepped = true;
        std::vector<protocol::InputChange> inputs;
        std::vector<game::RosterChange> roster;
        std::optional<protocol::MatchStart> match_start;
    };
    const Record* find(std::uint64_t tick) const;

    std::uint32_t ticks_kept_;
    std::deque<Record> records_;  // consecutive ticks, oldest first
    std::vector<game::RosterChange> pending_roster_;
    std::uint64_t replaced_tick_ = 0;
    std::uint64_t halted_since_ = 0;  // the first tick not stepped, of the current run of them
};

}  // namespace carom::server
