#include "carom/play/predictor.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace carom::play {
namespace {

bool same(const physics::DiskState& a, const physics::DiskState& b) {
    return a.position == b.position && a.velocity == b.velocity;
}

}  // namespace

Predictor::Predictor(game::CheckedMap map, game::Slot slot, PredictorConfig config)
    : config_(config), match_(std::move(map), 0), slot_(slot), inputs_(match_.slot_count()) {
    if (slot >= match_.slot_count()) throw std::invalid_argument("predictor: slot out of range");
}

const physics::DiskState& Predictor::disk() const {
    return match_.player_disk(slot_);
}

std::optional<game::Vec2> Predictor::predicted_at(std::uint32_t sequence) const {
    for (const Pending& p : pending_)
        if (p.sequence == sequence && p.after) return p.after->position;
    return std::nullopt;
}

void Predictor::step(Pending& pending) {
    // The others' inputs still on their way are unknown: each holds its last
    // (or, as ghosts, nothing at all).
    for (game::Slot s = 0; s < inputs_.size(); ++s)
        inputs_[s] = config_.others_hold_inputs ? match_.last_input(s) : game::Input{};
    inputs_[slot_] = pending.input;
    match_.step(inputs_);
    pending.after = match_.player_disk(slot_);
}

void Predictor::apply_input(std::uint32_t sequence, game::Input input) {
    pending_.push_back({sequence, input, std::nullopt});
    if (pending_.size() > config_.max_pending) pending_.pop_front();
    if (!ready_) return;
    step(pending_.back());
    offset_ = offset_ * (1.0 - config_.smoothing);
}

void Predictor::on_state(const game::Match& server, std::uint32_t last_applied) {
    while (!pending_.empty() && pending_.front().sequence < last_applied)
        pending_.pop_front();
    const Pending* applied = !pending_.empty() && pending_.front().sequence == last_applied
                                 ? &pending_.front()
                                 : nullptr;
    const bool agrees =
        applied != nullptr && applied->after && same(*applied->after, server.player_disk(slot_));

    const game::Vec2 drawn_before = ready_ ? drawn_position() : game::Vec2{};
    game::MatchState state = server.save();
    if (!config_.others_hold_inputs)
        for (game::Slot s = 0; s < state.players.size(); ++s)
            if (s != slot_) state.players[s].active = false;
    match_.restore(state);
    if (applied != nullptr) pending_.pop_front();
    for (Pending& p : pending_)
        step(p);

    ++stats_.frames;
    ++(agrees ? stats_.exact : stats_.corrections);
    if (!ready_) {
        ready_ = true;
        offset_ = {};
        return;
    }
    // The drawn disk stays where it was and then closes the gap, unless the
    // gap is large (a kick-off, a hard knock): then it jumps.
    const game::Vec2 gap = drawn_before - disk().position;
    const double distance = physics::length(gap);
    if (distance > config_.snap_units) {
        offset_ = {};
        ++stats_.snaps;
    } else {
        offset_ = gap;
    }
    if (!agrees && distance > config_.visible_units) ++stats_.visible;
}

}  // namespace carom::play
