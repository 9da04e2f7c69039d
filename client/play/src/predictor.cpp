#include "carom/play/predictor.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace carom::play {
namespace {

// A hostile frame could put a disk anywhere the integers reach; one this far
// outside the field is refused rather than simulated.
constexpr double kFarUnits = 10'000.0;

bool sane(const game::Map& map, const net::DiskQ& q) {
    const game::Vec2 p = protocol::position_of(q);
    return std::abs(p.x) < map.size.x + kFarUnits && std::abs(p.y) < map.size.y + kFarUnits;
}

bool same(const net::DiskQ& a, const net::DiskQ& b) {
    return a.x() == b.x() && a.y() == b.y() && a.vx() == b.vx() && a.vy() == b.vy();
}

}  // namespace

Predictor::Predictor(const game::Map& map, std::uint64_t match_seed, std::uint64_t match_start_tick,
                     game::Slot slot, PredictorConfig config)
    : config_(config),
      match_(map, match_seed),
      slot_(slot),
      inputs_(match_.slot_count()),
      start_tick_(match_start_tick),
      rng_at_start_(match_.save().rng) {
    if (slot >= match_.slot_count()) throw std::invalid_argument("predictor: slot out of range");
}

std::uint32_t Predictor::pause_ticks_left(std::uint64_t frame_tick) const {
    // The goal event's tick when it belongs to this pause (after the last
    // frame in play, not after this frame); else the first frame showing the
    // pause: at most a snapshot interval late, so the kick-off is predicted
    // that late and the next frame corrects it.
    std::uint64_t goal = frame_tick;
    if (goal_tick_ && *goal_tick_ > last_playing_tick_ && *goal_tick_ <= frame_tick) {
        goal = *goal_tick_;
    } else if (pause_seen_) {
        goal = *pause_seen_;
    }
    const std::uint64_t end = goal + game::kGoalPauseTicks;
    return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
        end > frame_tick ? end - frame_tick : 1, 1, game::kGoalPauseTicks));
}

const physics::DiskState& Predictor::disk() const {
    return match_.player_disk(slot_);
}

std::optional<game::Vec2> Predictor::predicted_at(std::uint32_t sequence) const {
    for (const Pending& p : pending_)
        if (p.sequence == sequence && p.after) return p.after->disk.position;
    return std::nullopt;
}

void Predictor::step(Pending& pending) {
    // Others' inputs are unknown: they glide. Only a touch makes that matter here.
    std::fill(inputs_.begin(), inputs_.end(), game::Input{});
    inputs_[slot_] = pending.input;
    match_.step(inputs_);
    const game::MatchState s = match_.save();
    pending.after = s.players[slot_];
}

void Predictor::apply_input(std::uint32_t sequence, game::Input input) {
    pending_.push_back({sequence, input, std::nullopt});
    if (pending_.size() > config_.max_pending) pending_.pop_front();
    if (!ready_) return;
    step(pending_.back());
    offset_ = offset_ * (1.0 - config_.smoothing);
}

game::MatchState Predictor::state_of(const protocol::Frame& frame, const Pending* agreed) const {
    const game::Map& map = match_.map();
    const std::uint64_t total = std::uint64_t{map.match_seconds} * game::kTickRate;
    game::MatchState s;
    // The match tick: server tick - match_start_tick while the match runs;
    // a finished match's clock is frozen (the frame's ticks left say where).
    s.tick = frame.phase == game::Phase::finished || frame.tick < start_tick_
                 ? total - std::min(frame.ticks_left, total)
                 : frame.tick - start_tick_;
    s.phase = frame.phase;
    if (s.phase == game::Phase::goal_pause) s.phase_ticks = pause_ticks_left(frame.tick);
    s.score = frame.score;
    // The generator draws only at kick-offs (two numbers a puck), one after
    // each goal pause: as many as the goals so far, less the pause under way.
    // (Two pucks scoring on the same tick make one pause: then it is off.)
    const std::uint64_t goals = std::uint64_t{frame.score[0]} + frame.score[1];
    // A hostile frame's score is capped at what a match can hold (a pause a goal).
    const std::uint64_t kickoffs =
        std::min(goals - (s.phase == game::Phase::goal_pause && goals > 0 ? 1 : 0),
                 total / game::kGoalPauseTicks + 1);
    game::Rng rng(rng_at_start_);
    for (std::uint64_t i = 0; i < kickoffs * 2 * match_.puck_count(); ++i)
        rng.next();
    s.rng = rng.state();
    const std::uint32_t pucks = match_.puck_count();
    for (game::Slot slot = 0; slot < match_.slot_count(); ++slot) {
        const net::DiskQ& q = frame.disks[pucks + slot];
        game::PlayerSnapshot p;
        // Other players are ghosts here: their inputs are unknown, and a
        // disk guessed forward would knock ours where the server's never
        // went. A real knock arrives with the next frame.
        p.active = slot == slot_ && ((frame.active_mask >> slot) & 1U) != 0;
        p.disk = {protocol::position_of(q), protocol::velocity_of(q)};
        if (slot == slot_ && agreed != nullptr && agreed->after) {
            p = *agreed->after;  // full precision: what the server has too
            p.active = ((frame.active_mask >> slot) & 1U) != 0;
        }
        s.players.push_back(std::move(p));
    }
    for (std::uint32_t i = 0; i < pucks; ++i) {
        const net::DiskQ& q = frame.disks[i];
        s.pucks.push_back({{protocol::position_of(q), protocol::velocity_of(q)}, std::nullopt});
    }
    return s;
}

void Predictor::on_frame(const protocol::Frame& frame, std::uint32_t last_applied) {
    const std::size_t own = std::size_t{match_.puck_count()} + slot_;
    const bool fits =
        frame.disks.size() == std::size_t{match_.puck_count()} + match_.slot_count() &&
        std::all_of(frame.disks.begin(), frame.disks.end(),
                    [this](const net::DiskQ& q) { return sane(match_.map(), q); });
    if (!fits) {
        ++stats_.rejected;
        return;
    }
    if (frame.phase == game::Phase::goal_pause) {
        if (!pause_seen_ || *pause_seen_ <= last_playing_tick_) pause_seen_ = frame.tick;
    } else if (frame.phase == game::Phase::playing) {
        last_playing_tick_ = std::max(last_playing_tick_, frame.tick);
    }
    while (!pending_.empty() && pending_.front().sequence < last_applied)
        pending_.pop_front();
    const Pending* applied = !pending_.empty() && pending_.front().sequence == last_applied
                                 ? &pending_.front()
                                 : nullptr;
    const bool agrees =
        applied != nullptr && applied->after &&
        same(protocol::quantise(applied->after->disk.position, applied->after->disk.velocity),
             frame.disks[own]);

    const game::Vec2 drawn_before = ready_ ? drawn_position() : game::Vec2{};
    try {
        match_.restore(state_of(frame, agrees ? applied : nullptr));
    } catch (const std::invalid_argument&) {
        ++stats_.rejected;  // non-finite values or a phase the match refuses
        return;
    }
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
