#pragma once
// The replay viewer's controls as a pure state machine: keys and elapsed wall
// time in, the position on the virtual timeline out. `play` feeds it from the
// terminal and the clock; tests feed it directly.
#include <array>
#include <cstdint>

#include "seek.hpp"
#include "viewer_keys.hpp"

namespace carom::tool {

inline constexpr std::array<double, 7> kSpeeds{0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0};

class PlaybackControl {
  public:
    // `length`: the virtual timeline (timeline_length()); `last_tick`: the file's last tick.
    PlaybackControl(const SeekEngine& engine, std::uint64_t length, std::uint64_t start);

    std::uint64_t position() const { return position_; }
    std::uint64_t length() const { return length_; }
    // The match tick to show.
    std::uint64_t match_tick() const;
    bool paused() const { return paused_; }
    double speed() const { return kSpeeds[speed_index_]; }

    void press(ViewKey key);
    // Moves the playhead by `seconds` of wall time at the current speed; it
    // stops (paused) at the end.
    void advance(double seconds);
    void jump_to(std::uint64_t position);

  private:
    const SeekEngine& engine_;
    std::uint64_t length_;
    std::uint64_t position_;
    double fraction_ = 0.0;  // ticks not yet whole
    bool paused_ = false;
    std::size_t speed_index_ = 2;  // 1x
};

}  // namespace carom::tool
