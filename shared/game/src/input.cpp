#include "carom/game/input.hpp"

#include <cmath>

namespace carom::game {

const std::array<physics::Vec2, Input::kDirections>& direction_table() {
    static const std::array<physics::Vec2, Input::kDirections> table = [] {
        const double c45 = std::sqrt(0.5);
        const double c22 = std::sqrt(2.0 + std::sqrt(2.0)) / 2.0;  // cos 22.5°
        const double s22 = std::sqrt(2.0 - std::sqrt(2.0)) / 2.0;  // sin 22.5°
        const std::array<physics::Vec2, 4> quadrant{
            physics::Vec2{1.0, 0.0}, {c22, s22}, {c45, c45}, {s22, c22}};
        std::array<physics::Vec2, Input::kDirections> t{};
        for (std::size_t q = 0; q < 4; ++q) {
            for (std::size_t k = 0; k < 4; ++k) {
                physics::Vec2 v = quadrant[k];
                for (std::size_t turn = 0; turn < q; ++turn) v = physics::perp(v);
                t[q * 4 + k] = v;
            }
        }
        return t;
    }();
    return table;
}

Input Input::toward(physics::Vec2 wish, bool kick) {
    if (wish.x == 0.0 && wish.y == 0.0) return idle(kick);
    const auto& table = direction_table();
    std::uint8_t best = 0;
    double best_dot = physics::dot(table[0], wish);
    for (std::uint8_t k = 1; k < kDirections; ++k) {
        const double d = physics::dot(table[k], wish);
        if (d > best_dot) {
            best_dot = d;
            best = k;
        }
    }
    return move(best, kick);
}

physics::Vec2 Input::vector() const {
    if (!moving()) return {};
    return direction_table()[direction()];
}

}  // namespace carom::game
