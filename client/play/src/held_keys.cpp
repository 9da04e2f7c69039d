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
    if (key == Key::kick) {
        until_ms_[index(key)] = now_ms + config_.kick_ms;
        return;
    }
    const bool repeat = held(key, now_ms);
    until_ms_[index(key)] = now_ms + (repeat ? config_.repeat_ms : config_.hold_ms);
    until_ms_[index(opposite(key))] = 0;
}

bool HeldKeys::held(Key key, std::uint64_t now_ms) const {
    return key != Key::count_ && now_ms < until_ms_[index(key)];
}

game::Input HeldKeys::input(std::uint64_t now_ms) const {
    const double x = (held(Key::right, now_ms) ? 1.0 : 0.0) - (held(Key::left, now_ms) ? 1.0 : 0.0);
    const double y = (held(Key::up, now_ms) ? 1.0 : 0.0) - (held(Key::down, now_ms) ? 1.0 : 0.0);
    return game::Input::toward({x, y}, held(Key::kick, now_ms));
}

}  // namespace carom::play
