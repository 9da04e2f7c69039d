#include "tick_history.hpp"

namespace carom::server {

void TickHistory::record(std::uint64_t tick, std::span<const protocol::InputChange> inputs,
                         bool stepped) {
    Record r;
    if (records_.size() >= ticks_kept_) {
        r = std::move(records_.front());  // reuses its vectors' memory
        records_.pop_front();
    }
    r.tick = tick;
    r.stepped = stepped;
    r.inputs.assign(inputs.begin(), inputs.end());
    for (protocol::InputChange& c : r.inputs)
        c.tick = tick;
    r.roster.clear();
    for (game::RosterChange& c : pending_roster_) {
        c.tick = tick;
        r.roster.push_back(std::move(c));
    }
    pending_roster_.clear();
    r.match_start.reset();
    if (!stepped && halted_since_ == 0) halted_since_ = tick;
    if (stepped) halted_since_ = 0;
    records_.push_back(std::move(r));
}

void TickHistory::note_match_start(protocol::MatchStart start) {
    if (records_.empty()) return;  // the room's first match: no client holds anything before it
    start.tick = records_.back().tick;
    records_.back().match_start = std::move(start);
}

const TickHistory::Record* TickHistory::find(std::uint64_t tick) const {
    if (records_.empty() || tick < records_.front().tick || tick > records_.back().tick)
        return nullptr;
    return &records_[static_cast<std::size_t>(tick - records_.front().tick)];
}

bool TickHistory::covers(std::uint64_t baseline) const {
    const std::uint64_t newest = newest_tick();
    if (baseline == 0 || baseline >= newest || find(baseline + 1) == nullptr) return false;
    if (replaced_tick_ > baseline) return false;
    int starts = 0;
    for (std::uint64_t t = baseline + 1; t <= newest; ++t)
        starts += find(t)->match_start ? 1 : 0;
    return starts <= 1;
}

void TickHistory::fill(protocol::Update& u) const {
    u.inputs.clear();
    u.roster.clear();
    u.match_start.reset();
    for (std::uint64_t t = u.baseline + 1; t <= u.tick; ++t) {
        const Record* r = find(t);
        if (r == nullptr) continue;
        u.inputs.insert(u.inputs.end(), r->inputs.begin(), r->inputs.end());
        u.roster.insert(u.roster.end(), r->roster.begin(), r->roster.end());
        if (r->match_start) u.match_start = r->match_start;
    }
    // Ticks from halted_since on were not stepped (a room paused by a fault).
    u.halted_since = halted_since_ != 0 && halted_since_ <= u.tick ? halted_since_ : 0;
}

}  // namespace carom::server
