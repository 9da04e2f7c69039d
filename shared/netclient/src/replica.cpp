#include "carom/client/replica.hpp"

#include <stdexcept>

#include "carom/game/tick_log.hpp"

namespace carom::client {
namespace {

// Held ticks whose sequence is remembered: far more than the server reaches back.
constexpr std::size_t kSequencesKept = 1024;

}  // namespace

Replica::Replica(game::CheckedMap map, std::size_t history_ticks)
    : map_(std::move(map)),
      match_(std::make_unique<game::Match>(map_, 0)),
      inputs_(match_->slot_count()),
      history_ticks_(history_ticks),
      applied_(kSequencesKept) {}

void Replica::record_moment(std::uint64_t tick) {
    if (history_ticks_ == 0) return;
    Moment m;
    if (history_.size() == history_ticks_) {
        m = std::move(history_.front());  // its vectors keep their capacity
        history_.pop_front();
    }
    m.tick = tick;
    const auto motion = [](const physics::DiskState& d) {
        return game::DiskMotion{d.position, d.velocity};
    };
    m.pucks.clear();
    for (std::uint32_t p = 0; p < match_->puck_count(); ++p)
        m.pucks.push_back(motion(match_->puck_disk(p)));
    m.players.clear();
    for (game::Slot s = 0; s < match_->slot_count(); ++s)
        m.players.push_back(motion(match_->player_disk(s)));
    m.discs.clear();
    for (std::uint32_t d = 0; d < match_->disc_count(); ++d)
        m.discs.push_back(motion(match_->disc_disk(d)));
    history_.push_back(std::move(m));
}

void Replica::forget_moments_after(std::uint64_t tick) {
    while (!history_.empty() && history_.back().tick > tick)
        history_.pop_back();
}

std::vector<ServerEvent> Replica::take_events() {
    std::vector<ServerEvent> out;
    out.swap(events_);
    return out;
}

void Replica::note_sequence(std::uint64_t tick, std::uint32_t sequence) {
    applied_[tick % applied_.size()] = {tick, sequence, true};
}

void Replica::note_older_state(std::uint64_t tick, std::uint32_t last_input_sequence) {
    if (!held_ || tick >= tick_ || tick_ - tick >= applied_.size() || sequence_at(tick)) return;
    note_sequence(tick, last_input_sequence);
}

std::optional<std::uint32_t> Replica::sequence_at(std::uint64_t tick) const {
    const HeldSequence& a = applied_[tick % applied_.size()];
    if (!a.valid || a.tick != tick) return std::nullopt;
    return a.sequence;
}

Status Replica::restore(const protocol::RoomState& s) {
    held_ = false;
    if (s.match.players.size() != match_->slot_count() ||
        s.match.pucks.size() != match_->puck_count() ||
        s.match.discs.size() != match_->disc_count() || s.bots.size() != match_->slot_count())
        return fail("full state: another map's slots, pucks or discs");
    try {
        if (s.match_seed != match_->seed())
            match_ = std::make_unique<game::Match>(map_, s.match_seed);
        match_->restore(s.match);
    } catch (const std::invalid_argument& e) {
        return fail(std::string("full state: ") + e.what());
    }
    if (match_->state_hash() != s.state_hash)
        return fail("full state: restored to another state hash than the server's");
    tick_ = s.tick;
    seed_ = s.match_seed;
    start_tick_ = s.match_start_tick;
    halted_since_ = s.halted_since;
    sequence_ = s.last_input_sequence;
    sequence_tick_ = tick_;
    bots_ = s.bots;
    applied_.assign(applied_.size(), HeldSequence{});
    note_sequence(tick_, sequence_);
    // A state from before the newest moment (a server that went back) starts the history anew.
    if (!history_.empty() && history_.back().tick >= tick_) history_.clear();
    record_moment(tick_);
    held_ = true;
    return {};
}

Replica::Saved Replica::save() const {
    return {tick_,     seed_, start_tick_,    halted_since_,
            sequence_, bots_, match_->save(), events_.size()};
}

void Replica::back_to(const Saved& s) {
    if (match_->seed() != s.seed) match_ = std::make_unique<game::Match>(map_, s.seed);
    match_->restore(s.match);
    tick_ = s.tick;
    seed_ = s.seed;
    start_tick_ = s.start_tick;
    halted_since_ = s.halted_since;
    sequence_ = s.sequence;
    bots_ = s.bots;
    events_.resize(s.events);
    forget_moments_after(s.tick);
}

bool Replica::start_match(const protocol::MatchStart& start) {
    match_ = std::make_unique<game::Match>(map_, start.seed);
    bots_.assign(match_->slot_count(), false);
    if (!game::join_all(*match_, start.slots)) return false;
    for (const game::RosterEntry& p : start.slots)
        bots_[p.slot] = p.bot;
    seed_ = start.seed;
    start_tick_ = start.tick;
    return true;
}

bool Replica::step_to(const protocol::Update& u) {
    std::size_t next_input = 0, next_roster = 0;
    const std::span<const game::RosterChange> roster = u.roster;
    const std::span<const protocol::InputChange> inputs = u.inputs;
    for (std::uint64_t t = tick_ + 1; t <= u.tick; ++t) {
        // Each slot holds its last applied input, but where it changed at t.
        for (game::Slot s = 0; s < inputs_.size(); ++s)
            inputs_[s] = match_->last_input(s);
        const auto change_inputs = [&](std::span<game::Input> held) {
            for (const protocol::InputChange& c : game::changes_at(inputs, next_input, t))
                held[c.slot] = c.delta.applied_to(held[c.slot]);
        };
        // A room paused by a fault does not step (from the tick it stopped on).
        const std::uint64_t halted_since = u.halted_since != 0 ? u.halted_since : halted_since_;
        const bool halted = halted_since != 0 && t >= halted_since;
        const auto changes = game::changes_at(roster, next_roster, t);
        const auto events = game::play_tick(*match_, changes, inputs_, change_inputs, halted);
        if (!events) return false;  // a join of a taken slot, a leave of an empty one
        for (const game::RosterChange& r : changes)
            bots_[r.slot] = r.join && r.bot;
        for (game::MatchEvent e : *events) {
            e.tick = start_tick_ + e.tick;  // the wire speaks server ticks
            events_.push_back(e);
        }
        if (u.match_start && u.match_start->tick == t && !start_match(*u.match_start)) return false;
        record_moment(t);
    }
    if (u.halted_since != 0) halted_since_ = u.halted_since;
    return true;
}

Replica::Applied Replica::apply(const protocol::Update& u, bool spectator) {
    if (!held_) return Applied::not_held;
    if (u.tick <= tick_) return Applied::old;
    if (u.baseline > tick_) return Applied::not_held;
    const std::optional<std::uint32_t> from =
        spectator ? std::optional<std::uint32_t>(sequence_) : sequence_at(u.baseline);
    if (!from) return Applied::not_held;
    const Saved saved = save();
    if (!step_to(u) || protocol::state_check(match_->state_hash()) != u.state) {
        back_to(saved);
        return Applied::mismatch;
    }
    const std::uint64_t ticks = u.tick - tick_;
    const std::uint32_t advance = *from + u.sequence_advance - sequence_;
    tick_ = u.tick;
    sequence_ += advance;
    if (advance != 0) sequence_tick_ = advance >= ticks ? tick_ : tick_ - (ticks - advance);
    note_sequence(tick_, sequence_);
    return Applied::taken;
}

}  // namespace carom::client
