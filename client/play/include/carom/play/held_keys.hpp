#pragma once
// Terminals report key presses, never releases: a key pressed holds its
// direction for a window, and key repeat (a held key arrives again every
// 30-50 ms once the repeat delay is over) keeps it alive. The first window is
// long enough to bridge the usual repeat delay (500 ms); a repeat extends it
// by the shorter one, so letting go stops the disk within `repeat_ms`.
#include <array>
#include <cstdint>

#include "carom/game/input.hpp"

namespace carom::play {

enum class Key : std::uint8_t { up, down, left, right, kick, count_ };

struct HoldConfig {
    std::uint64_t hold_ms = 520;    // after a first press
    std::uint64_t repeat_ms = 120;  // after a press while still held (key repeat)
    std::uint64_t kick_ms = 100;    // the kick button stays down this long
};

class HeldKeys {
  public:
    explicit HeldKeys(HoldConfig config = {}) : config_(config) {}

    // A press of `key`; pressing a direction lets go of its opposite at once.
    void press(Key key, std::uint64_t now_ms);
    void release_all() { until_ms_ = {}; }
    bool held(Key key, std::uint64_t now_ms) const;
    // The input of the held keys: up to two directions make a diagonal.
    game::Input input(std::uint64_t now_ms) const;

  private:
    HoldConfig config_;
    std::array<std::uint64_t, static_cast<std::size_t>(Key::count_)> until_ms_{};
};

}  // namespace carom::play
