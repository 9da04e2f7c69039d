#pragma once
// Which keys steer now. Most terminals report key presses, never releases:
// a key pressed holds its direction for a window, and key repeat (a held
// key arrives again every 30-50 ms once the repeat delay is over) keeps it
// alive. The first window is long enough to bridge the usual repeat delay
// (500 ms); a repeat extends it by the shorter one, so letting go stops the
// disk within `repeat_ms`. A terminal that reports releases too (the kitty
// keyboard protocol) needs no window: a key steers from its press to its
// release, and a tap shorter than a tick still steers that one tick.
#include <array>
#include <cstdint>

#include "carom/game/input.hpp"

namespace carom::play {

enum class Key : std::uint8_t { up, down, left, right, kick, count_ };

struct HoldConfig {
    std::uint64_t hold_ms = 520;    // after a first press
    std::uint64_t repeat_ms = 120;  // after a press while still held (key repeat)
    std::uint64_t kick_ms = 100;    // the kick button stays down this long
    bool releases = false;          // the terminal reports releases: no windows
};

class HeldKeys {
  public:
    explicit HeldKeys(HoldConfig config = {}) : config_(config) {}

    // A press of `key` (or, without releases, a repeat); without releases,
    // pressing a direction lets go of its opposite at once.
    void press(Key key, std::uint64_t now_ms);
    // With releases: the key is up.
    void release(Key key);
    bool held(Key key, std::uint64_t now_ms) const;
    // The input of the held keys: up to two directions make a diagonal; of
    // two opposite ones held, the later pressed. Called once a tick: a key
    // pressed and released since the last call counts as held for this one.
    game::Input input(std::uint64_t now_ms);

  private:
    static constexpr std::size_t kKeys = static_cast<std::size_t>(Key::count_);
    // The later pressed of two opposite keys, when both are held.
    bool wins_over(Key key, Key opposite, std::uint64_t now_ms) const;

    HoldConfig config_;
    std::array<std::uint64_t, kKeys> until_ms_{};  // without releases
    std::array<bool, kKeys> down_{};               // with releases: between press and release
    std::array<bool, kKeys> tapped_{};             // pressed since the last input()
    std::array<std::uint64_t, kKeys> pressed_{};   // the order of the presses
    std::uint64_t presses_ = 0;
};

}  // namespace carom::play
