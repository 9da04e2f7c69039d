#include "carom/terminal/steer_key.hpp"

namespace carom::terminal {

std::optional<play::Key> steer_key(const Key& k) {
    using Kind = Key::Kind;
    switch (k.kind) {
        case Kind::up:
            return play::Key::up;
        case Kind::down:
            return play::Key::down;
        case Kind::left:
            return play::Key::left;
        case Kind::right:
            return play::Key::right;
        case Kind::character:
            switch (k.ch) {
                case 'w':
                case 'W':
                    return play::Key::up;
                case 's':
                case 'S':
                    return play::Key::down;
                case 'a':
                case 'A':
                    return play::Key::left;
                case 'd':
                case 'D':
                    return play::Key::right;
                case ' ':
                    return play::Key::kick;
                default:
                    return std::nullopt;
            }
        default:
            return std::nullopt;
    }
}

}  // namespace carom::terminal
