#pragma once
// The one rule for "the nearest" that the match (whom a kick pushes) and the
// bot (which puck to chase) share: of `count`
// candidates, the one whose position is closest to `to`, no farther than
// `within`; ties go to the lower index, so every machine picks the same.
#include <cstdint>
#include <limits>
#include <optional>

#include "carom/physics/vec2.hpp"

namespace carom::game {

// `position_of(i)` gives candidate i's position. nullopt when no candidate
// lies within reach (or there are none).
template <class PositionOf>
std::optional<std::uint32_t> nearest_index(
    std::uint32_t count, physics::Vec2 to, PositionOf position_of,
    double within = std::numeric_limits<double>::infinity()) {
    std::optional<std::uint32_t> best;
    double best_distance_squared = within * within;
    for (std::uint32_t i = 0; i < count; ++i) {
        const double d2 = physics::length_squared(position_of(i) - to);
        if (d2 <= best_distance_squared && (!best || d2 < best_distance_squared)) {
            best = i;
            best_distance_squared = d2;
        }
    }
    return best;
}

}  // namespace carom::game
