#include "carom/play/interpolator.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace carom::play {
namespace {

// Farther than this from the target, the playout clock jumps instead of steering.
constexpr double kResyncMs = 300.0;
// Fraction of the gap to the target closed per sample.
constexpr double kSteer = 0.05;
// A disk moving farther than its velocities allow between two ticks (with
// this slack) was put somewhere: drawn at one end, not slid across the field.
constexpr double kTeleportSlackUnits = 2.0;
// The shortest interpolation delay: more than a lost update's gap at 60 Hz.
constexpr double kMinDelayMs = 50.0;

using Group = std::vector<game::DiskMotion> client::Moment::*;
constexpr Group kGroups[] = {&client::Moment::pucks, &client::Moment::players,
                             &client::Moment::discs};
constexpr std::vector<game::Vec2> render::Positions::*kDrawn[] = {
    &render::Positions::pucks, &render::Positions::players, &render::Positions::discs};

// Whether a disk went from `a` to `b` (`ticks` apart) farther than its velocities allow.
bool teleported(const game::DiskMotion& a, const game::DiskMotion& b, std::uint64_t ticks,
                double tick_ms) {
    const double span_s = static_cast<double>(ticks) * tick_ms / 1000.0;
    const double speed = std::max(physics::length(a.velocity), physics::length(b.velocity));
    return physics::length(b.position - a.position) > speed * span_s * 1.5 + kTeleportSlackUnits;
}

bool any_teleported(const client::Moment& a, const client::Moment& b, double tick_ms) {
    for (const Group g : kGroups) {
        const auto& from = a.*g;
        const auto& to = b.*g;
        if (from.size() != to.size()) return true;
        for (std::size_t i = 0; i < from.size(); ++i)
            if (teleported(from[i], to[i], b.tick - a.tick, tick_ms)) return true;
    }
    return false;
}

}  // namespace

Interpolator::Interpolator(InterpolatorConfig config)
    : config_(config), delay_ms_(2.0 * config.update_interval_ms) {}

void Interpolator::on_state(std::uint64_t tick, double arrival_ms) {
    if (newest_tick_ && tick <= *newest_tick_) return;
    newest_tick_ = tick;
    offsets_.push_back(arrival_ms - static_cast<double>(tick) * config_.tick_ms);
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
                             : std::max(2.0 * config_.update_interval_ms, kMinDelayMs);
    delay_ms_ = std::clamp(config_.update_interval_ms + jitter, floor, config_.max_delay_ms);
}

double Interpolator::target_ms(double now_ms) const {
    return now_ms - base_offset_ms_ - delay_ms_;
}

void Interpolator::count_teleports(const std::deque<client::Moment>& history, double tick) {
    for (std::size_t i = 1; i < history.size(); ++i) {
        const auto t = static_cast<double>(history[i].tick);
        if (t > shown_tick_ && t <= tick + 0.5 &&
            any_teleported(history[i - 1], history[i], config_.tick_ms))
            ++teleports_;
    }
    shown_tick_ = std::max(shown_tick_, tick + 0.5);
}

const render::Positions& Interpolator::sample(const std::deque<client::Moment>& history,
                                              double now_ms) {
    for (const auto drawn : kDrawn)
        (out_.*drawn).clear();
    if (history.empty() || offsets_.empty()) return out_;
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
    count_teleports(history, tick);
    const client::Moment& newest = history.back();
    if (tick >= static_cast<double>(newest.tick)) {
        ++starved_;
        const double ahead_s = std::min((tick - static_cast<double>(newest.tick)) * config_.tick_ms,
                                        config_.max_extrapolate_ms) /
                               1000.0;
        for (std::size_t g = 0; g < std::size(kGroups); ++g)
            for (const game::DiskMotion& d : newest.*kGroups[g])
                (out_.*kDrawn[g]).push_back(d.position + d.velocity * ahead_s);
        return out_;
    }
    if (tick <= static_cast<double>(history.front().tick)) {
        for (std::size_t g = 0; g < std::size(kGroups); ++g)
            for (const game::DiskMotion& d : history.front().*kGroups[g])
                (out_.*kDrawn[g]).push_back(d.position);
        return out_;
    }
    // The two held ticks around the shown time.
    std::size_t b = 1;
    while (static_cast<double>(history[b].tick) < tick)
        ++b;
    const client::Moment& from = history[b - 1];
    const client::Moment& to = history[b];
    const std::uint64_t span = to.tick - from.tick;
    const double t = (tick - static_cast<double>(from.tick)) / static_cast<double>(span);
    for (std::size_t g = 0; g < std::size(kGroups); ++g) {
        const auto& a = from.*kGroups[g];
        const auto& z = to.*kGroups[g];
        auto& out = out_.*kDrawn[g];
        for (std::size_t i = 0; i < a.size() && i < z.size(); ++i) {
            if (teleported(a[i], z[i], span, config_.tick_ms)) {
                out.push_back(t < 0.5 ? a[i].position : z[i].position);
            } else {
                out.push_back(a[i].position + (z[i].position - a[i].position) * t);
            }
        }
    }
    return out_;
}

}  // namespace carom::play
