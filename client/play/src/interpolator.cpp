#include "carom/play/interpolator.hpp"

#include <algorithm>
#include <cmath>

namespace carom::play {
namespace {

constexpr std::size_t kFramesKept = 32;
// Farther than this from the target, the playout clock jumps instead of steering.
constexpr double kResyncMs = 300.0;
// Fraction of the gap to the target closed per sample.
constexpr double kSteer = 0.05;
// A disk moving farther than its velocities allow between two frames (with
// this slack) was put somewhere: drawn at one end, not slid across the field.
constexpr double kTeleportSlackUnits = 2.0;
// The shortest interpolation delay: more than a lost snapshot's gap at 60 Hz.
constexpr double kMinDelayMs = 50.0;

}  // namespace

Interpolator::Interpolator(InterpolatorConfig config)
    : config_(config), delay_ms_(2.0 * config.snapshot_interval_ms) {}

void Interpolator::on_frame(const client::Frame& frame, double arrival_ms) {
    if (!frames_.empty() && frame.tick <= frames_.back().tick) return;
    if (!frames_.empty() && frame.disks.size() != frames_.back().position.size()) frames_.clear();
    Held held{frame.tick, {}, {}};
    for (const game::DiskSnapshot& d : frame.disks) {
        held.position.push_back(d.position);
        held.velocity.push_back(d.velocity);
    }
    if (!frames_.empty())
        for (std::size_t i = 0; i < held.position.size() && !held.jumped; ++i)
            held.jumped = teleported(frames_.back(), held, i, config_.tick_ms);
    frames_.push_back(std::move(held));
    if (frames_.size() > kFramesKept) frames_.pop_front();

    offsets_.push_back(arrival_ms - static_cast<double>(frame.tick) * config_.tick_ms);
    if (offsets_.size() > config_.window) offsets_.pop_front();
    update_delay();
}

void Interpolator::update_delay() {
    base_offset_ms_ = *std::min_element(offsets_.begin(), offsets_.end());
    // Jitter: the 90th percentile of the lateness above the fastest arrival.
    std::vector<double> late(offsets_.begin(), offsets_.end());
    for (double& l : late)
        l -= base_offset_ms_;
    const auto k = static_cast<std::ptrdiff_t>(late.size() * 9 / 10);
    std::nth_element(late.begin(), late.begin() + k, late.end());
    const double jitter = late[static_cast<std::size_t>(k)];
    const double floor = config_.min_delay_ms > 0.0
                             ? config_.min_delay_ms
                             : std::max(2.0 * config_.snapshot_interval_ms, kMinDelayMs);
    delay_ms_ = std::clamp(config_.snapshot_interval_ms + jitter, floor, config_.max_delay_ms);
}

double Interpolator::target_ms(double now_ms) const {
    return now_ms - base_offset_ms_ - delay_ms_;
}

const std::vector<game::Vec2>& Interpolator::sample(double now_ms) {
    out_.clear();
    if (frames_.empty()) return out_;
    const double target = target_ms(now_ms);
    if (!last_now_ms_ || std::abs(target - shown_ms_) > kResyncMs) {
        shown_ms_ = target;
    } else {
        const double advanced = shown_ms_ + std::max(now_ms - *last_now_ms_, 0.0);
        // Steer toward the target but never run backwards.
        shown_ms_ = std::max(shown_ms_, advanced + (target - advanced) * kSteer);
    }
    last_now_ms_ = now_ms;

    const double tick = shown_ms_ / config_.tick_ms;
    for (const Held& f : frames_)
        if (f.jumped && static_cast<double>(f.tick) > shown_tick_ &&
            static_cast<double>(f.tick) <= tick + 0.5)
            ++teleports_;
    shown_tick_ = std::max(shown_tick_, tick + 0.5);
    const Held& newest = frames_.back();
    if (tick >= static_cast<double>(newest.tick)) {
        ++starved_;
        const double ahead_s = std::min((tick - static_cast<double>(newest.tick)) * config_.tick_ms,
                                        config_.max_extrapolate_ms) /
                               1000.0;
        for (std::size_t i = 0; i < newest.position.size(); ++i)
            out_.push_back(newest.position[i] + newest.velocity[i] * ahead_s);
        return out_;
    }
    if (tick <= static_cast<double>(frames_.front().tick)) {
        out_ = frames_.front().position;
        return out_;
    }
    // The two frames around the shown time.
    std::size_t b = 1;
    while (static_cast<double>(frames_[b].tick) < tick)
        ++b;
    const Held& from = frames_[b - 1];
    const Held& to = frames_[b];
    const double span_ticks = static_cast<double>(to.tick - from.tick);
    const double t = (tick - static_cast<double>(from.tick)) / span_ticks;
    for (std::size_t i = 0; i < from.position.size(); ++i) {
        if (teleported(from, to, i, config_.tick_ms)) {
            out_.push_back(t < 0.5 ? from.position[i] : to.position[i]);
        } else {
            out_.push_back(from.position[i] + (to.position[i] - from.position[i]) * t);
        }
    }
    return out_;
}

bool Interpolator::teleported(const Held& from, const Held& to, std::size_t i, double tick_ms) {
    const double span_s = static_cast<double>(to.tick - from.tick) * tick_ms / 1000.0;
    const double speed =
        std::max(physics::length(from.velocity[i]), physics::length(to.velocity[i]));
    return physics::length(to.position[i] - from.position[i]) >
           speed * span_s * 1.5 + kTeleportSlackUnits;
}

}  // namespace carom::play
