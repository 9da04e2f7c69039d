#include "carom/game/tick_log.hpp"

#include <string>

namespace carom::game {
namespace {

// Why the match would refuse the change, checked first so that a log's
// mistake is an error here and Match's own refusal stays a broken contract.
const char* refusal(const Match& match, Slot slot, bool join) {
    if (join) {
        if (slot >= match.slot_count()) return "join: slot out of range";
        if (match.active(slot)) return "join: slot is taken";
    } else if (slot >= match.slot_count() || !match.active(slot)) {
        return "leave: slot is empty";
    }
    return nullptr;
}

}  // namespace

Status join_all(Match& match, std::span<const RosterEntry> players) {
    for (const RosterEntry& p : players) {
        if (const char* why = refusal(match, p.slot, true)) return fail(why);
        match.join(p.slot, p.name);
    }
    return {};
}

Status apply_roster(Match& match, std::span<const RosterChange> changes, std::span<Input> held) {
    for (const RosterChange& c : changes) {
        if (const char* why = refusal(match, c.slot, c.join))
            return fail("tick " + std::to_string(c.tick) + ": " + why);
        if (c.join) {
            match.join(c.slot, c.name);
        } else {
            match.leave(c.slot);
        }
        held[c.slot] = Input{};
    }
    return {};
}

}  // namespace carom::game
