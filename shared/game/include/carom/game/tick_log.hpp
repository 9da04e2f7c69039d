#pragma once
// A match as a log tells it: the players it starts with, then, tick by tick,
// the joins and leaves before each step and the inputs of each step. The
// server's updates and its replays both carry such a log; the client's copy
// and a replay's re-simulation both play it with play_tick(), so they step
// the match as the server did.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "carom/game/input.hpp"
#include "carom/game/match.hpp"
#include "carom/result.hpp"

namespace carom::game {

// A slot's player, as a match starts with it.
struct RosterEntry {
    Slot slot = 0;
    std::string name;
    bool bot = false;
    friend bool operator==(const RosterEntry&, const RosterEntry&) = default;
};

// A join or leave before the step of `tick`.
struct RosterChange {
    std::uint64_t tick = 0;
    Slot slot = 0;
    bool join = false;
    std::string name;  // join
    bool bot = false;  // join
    friend bool operator==(const RosterChange&, const RosterChange&) = default;
};

// Joins `players` in order; the error names the first one the match refuses
// (a slot out of range or taken), the ones before it joined.
Status join_all(Match& match, std::span<const RosterEntry> players);

// The entries of `log` (ordered by tick) at `tick`, from index `next` on;
// `next` moves past every entry up to `tick` (earlier ones are skipped).
template <class Change>
std::span<const Change> changes_at(std::span<const Change> log, std::size_t& next,
                                   std::uint64_t tick) {
    while (next < log.size() && log[next].tick < tick)
        ++next;
    const std::size_t first = next;
    while (next < log.size() && log[next].tick == tick)
        ++next;
    return log.subspan(first, next - first);
}

// Applies one tick's roster changes, in order, each putting its slot's entry
// of `held` (the input each slot holds, one per slot) back to idle. The
// error, naming the change's tick, at the first change the match refuses (a
// join of a slot out of range or taken, a leave of an empty one): the
// changes before it are applied.
Status apply_roster(Match& match, std::span<const RosterChange> changes, std::span<Input> held);

// One tick of a log: apply_roster(changes), then `change_inputs(held)` writes
// the inputs that changed at this tick into `held`, then the match steps with
// `held` unless `halted` (a room paused by a fault: its roster still
// changes). Returns the step's events (none when halted); the error of
// apply_roster(), and then nothing stepped.
template <class ChangeInputs>
Result<std::span<const MatchEvent>> play_tick(Match& match, std::span<const RosterChange> changes,
                                              std::span<Input> held, ChangeInputs&& change_inputs,
                                              bool halted = false) {
    if (Status roster = apply_roster(match, changes, held); !roster) return roster.error();
    change_inputs(held);
    if (halted) return std::span<const MatchEvent>{};
    return match.step(held);
}

}  // namespace carom::game
