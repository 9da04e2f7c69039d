#pragma once
// Everything but your own disk is drawn a little in the past, between two
// snapshots, so it moves smoothly whatever the network does. No clocks: the
// arrival time of each frame and the time of each sample are passed in.
//
// The delay adapts: each frame's arrival against its server tick gives the
// offset between the clocks; the smallest offset over a window is the
// fastest path, the spread above it the jitter. The playout clock runs at
// the local rate and is steered gently (never backwards) toward
// "newest server time − delay"; past the newest frame a disk is extrapolated
// with its velocity for at most `max_extrapolate_ms`, then held.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "carom/client/frame.hpp"
#include "carom/game/map.hpp"

namespace carom::play {

struct InterpolatorConfig {
    double tick_ms = 1000.0 / 60.0;
    double snapshot_interval_ms = 1000.0 / 30.0;
    // 0: two snapshot intervals, and at least 50 ms, so that one lost
    // snapshot at 60 Hz does not leave the playout without a frame ahead.
    double min_delay_ms = 0.0;
    double max_delay_ms = 250.0;
    double max_extrapolate_ms = 50.0;
    std::size_t window = 64;  // arrivals kept for the clock estimate
};

class Interpolator {
  public:
    explicit Interpolator(InterpolatorConfig config = {});

    void on_frame(const client::Frame& frame, double arrival_ms);
    // Every disk's position at local time `now_ms` (pucks, then player slots);
    // empty before the first frame. Call with non-decreasing times.
    const std::vector<game::Vec2>& sample(double now_ms);

    double delay_ms() const { return delay_ms_; }
    // The server time shown by the last sample, in ms of server ticks.
    double shown_ms() const { return shown_ms_; }
    // Frames where a disk jumped (a kick-off) rather than moved, that the
    // shown time went past: a drawn frame may skip a frame or two of the
    // server's, not its jumps.
    std::uint64_t teleports() const { return teleports_; }
    // Samples beyond the newest frame (extrapolated or held).
    std::uint64_t starved() const { return starved_; }

  private:
    struct Held {
        std::uint64_t tick;
        std::vector<game::Vec2> position;
        std::vector<game::Vec2> velocity;
        bool jumped = false;  // a disk was put somewhere since the frame before (a kick-off)
    };
    // Whether a disk went from `from` to `to` farther than its velocities allow.
    static bool teleported(const Held& from, const Held& to, std::size_t disk, double tick_ms);

    void update_delay();
    double target_ms(double now_ms) const;

    InterpolatorConfig config_;
    std::deque<Held> frames_;     // oldest first
    std::deque<double> offsets_;  // arrival − server time, per frame
    double base_offset_ms_ = 0.0;
    double delay_ms_;
    std::optional<double> last_now_ms_;
    double shown_ms_ = 0.0;
    double shown_tick_ = 0.0;  // frames up to this tick count as passed (teleports)
    std::vector<game::Vec2> out_;
    std::uint64_t teleports_ = 0;
    std::uint64_t starved_ = 0;
};

}  // namespace carom::play
