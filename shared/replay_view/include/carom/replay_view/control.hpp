#pragma once
// The replay viewer's controls as a pure state machine: keys and elapsed wall
// time in, the position on the virtual timeline out. Every viewer maps its own
// keys to these (carom-replay play the terminal's, the replay page the
// browser's, through carom.h) and feeds it its clock; tests feed it directly.
#include <array>
#include <cstdint>

#include "carom/replay_view/seek.hpp"

namespace carom::replay_view {

// What a viewer's keys do (carom.h's carom_view_key has the same values).
enum class ViewKey : std::uint8_t {
    pause,   // pause, resume; at the end, play again from the start
    faster,  // the next speed of kSpeeds
    slower,  // the previous one
    back_5s,
    forward_5s,
    back_30s,
    forward_30s,
    previous_goal,  // the last goal before the match's tick
    next_goal,      // the first goal after it
    tick_back,      // while paused
    tick_forward,   // while paused
    home,
    end,
    other  // does nothing here (a host's own key: names, quit)
};

inline constexpr std::array<double, 7> kSpeeds{0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0};

class PlaybackControl {
  public:
    // `length`: the virtual timeline (timeline_length()); starts at `start`, at 1x.
    PlaybackControl(const SeekEngine& engine, std::uint64_t length, std::uint64_t start,
                    bool paused = false);

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
    // The speed of kSpeeds nearest to `speed`.
    void set_speed(double speed);

  private:
    const SeekEngine& engine_;
    std::uint64_t length_;
    std::uint64_t position_;
    double fraction_ = 0.0;  // ticks not yet whole
    bool paused_ = false;
    std::size_t speed_index_ = 2;  // 1x
};

}  // namespace carom::replay_view
