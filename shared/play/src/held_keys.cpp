#include "carom/play/held_keys.hpp"

namespace carom::play {
namespace {

std::size_t index(Key key) {
    return static_cast<std::size_t>(key);
}

Key opposite(Key key) {
    switch (key) {
        case Key::up:
            return Key::down;
        case Key::down:
            return Key::up;
        case Key::left:
            return Key::right;
        case Key::right:
            return Key::left;
        default:
            return key;
    }
}

}  // namespace

void HeldKeys::press(Key key, std::uint64_t now_ms) {
    if (key == Key::count_) return;
    pressed_[index(key)] = ++presses_;
    if (config_.releases) {
        down_[index(key)] = true;
        tapped_[index(key)] = true;
        return;
    }
    if (key == Key::kick) {
        until_ms_[index(key)] = now_ms + config_.kick_ms;
        return;
    }
    const bool repeat = held(key, now_ms);
    until_ms_[index(key)] = now_ms + (repeat ? config_.repeat_ms : config_.hold_ms);
    until_ms_[index(opposite(key))] = 0;
}

void HeldKeys::release(Key key) {
    if (key != Key::count_) down_[index(key)] = false;
}

bool HeldKeys::held(Key key, std::uint64_t now_ms) const {
    if (key == Key::count_) return false;
    if (config_.releases) return down_[index(key)] || tapped_[index(key)];
    return now_ms < until_ms_[index(key)];
}

bool HeldKeys::wins_over(Key key, Key other, std::uint64_t now_ms) const {
    return held(key, now_ms) &&
           (!held(other, now_ms) || pressed_[index(key)] > pressed_[index(other)]);
}

game::Input HeldKeys::input(std::uint64_t now_ms) {
    const double x = (wins_over(Key::right, Key::left, now_ms) ? 1.0 : 0.0) -
                     (wins_over(Key::left, Key::right, now_ms) ? 1.0 : 0.0);
    const double y = (wins_over(Key::up, Key::down, now_ms) ? 1.0 : 0.0) -
                     (wins_over(Key::down, Key::up, now_ms) ? 1.0 : 0.0);
    const game::Input input = game::Input::toward({x, y}, held(Key::kick, now_ms));
    tapped_ = {};
    return input;
}

}  // namespace carom::play
