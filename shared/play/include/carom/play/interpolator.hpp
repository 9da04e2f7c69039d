#pragma once
// Everything but your own disk is drawn a little in the past, between two
// ticks of the client's copy of the match (client::Replica's history), so it
// moves smoothly whatever the network does. No clocks: the arrival time of
// each new state and the time of each sample are passed in.
//
// The delay adapts: each state's arrival against its server tick gives the
// offset between the clocks; the smallest offset over a window is the
// fastest path, the spread above it the jitter. The playout clock runs at
// the local rate and is steered gently (never backwards) toward
// "newest server time − delay"; past the newest tick a disk is extrapolated
// with its velocity for at most `max_extrapolate_ms`, then held.
#include <cstdint>
#include <deque>
#include <optional>

#include "carom/client/replica.hpp"
#include "carom/render/scene_builder.hpp"

namespace carom::play {

struct InterpolatorConfig {
    double tick_ms = 1000.0 / 60.0;
    double update_interval_ms = 1000.0 / 30.0;  // between two updates from the server
    // 0: two update intervals, and at least 50 ms, so that one lost update
    // at 60 Hz does not leave the playout without a tick ahead.
    double min_delay_ms = 0.0;
    double max_delay_ms = 250.0;
    double max_extrapolate_ms = 50.0;
    std::size_t window = 64;  // arrivals kept for the clock estimate
};

class Interpolator {
  public:
    explicit Interpolator(InterpolatorConfig config = {});

    // The copy moved on to server tick `tick`, which arrived at `arrival_ms`.
    void on_state(std::uint64_t tick, double arrival_ms);
    // Every disk's position at local time `now_ms`, from the copy's held
    // ticks (Replica::history()); empty lists before the first. Call with
    // non-decreasing times; valid until the next call.
    const render::Positions& sample(const std::deque<client::Moment>& history, double now_ms);

    double delay_ms() const { return delay_ms_; }
    // The server time shown by the last sample, in ms of server ticks.
    double shown_ms() const { return shown_ms_; }
    // Ticks where a disk jumped (a kick-off) rather than moved, that the
    // shown time went past: a drawn frame may skip a tick or two of the
    // server's, not its jumps.
    std::uint64_t teleports() const { return teleports_; }
    // Samples beyond the newest tick (extrapolated or held).
    std::uint64_t starved() const { return starved_; }

  private:
    void update_delay();
    double target_ms(double now_ms) const;
    void count_teleports(const std::deque<client::Moment>& history, double tick);

    InterpolatorConfig config_;
    std::optional<std::uint64_t> newest_tick_;
    std::deque<double> offsets_;  // arrival − server time, per state
    double base_offset_ms_ = 0.0;
    double delay_ms_;
    std::optional<double> last_now_ms_;
    double shown_ms_ = 0.0;
    double shown_tick_ = 0.0;  // ticks up to this one count as passed (teleports)
    render::Positions out_;
    std::uint64_t teleports_ = 0;
    std::uint64_t starved_ = 0;
};

}  // namespace carom::play
