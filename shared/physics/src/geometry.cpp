#include "carom/physics/geometry.hpp"

#include <algorithm>

namespace carom::physics {

Aabb bounds_of(const Segment& s) {
    return {{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)},
            {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)}};
}

Aabb bounds_of(const Box& b) {
    // Extent of the rotated box along world x and y.
    const Vec2 ax = b.axis;
    const Vec2 ay = perp(b.axis);
    const double ex = std::abs(ax.x) * b.half_extents.x + std::abs(ay.x) * b.half_extents.y;
    const double ey = std::abs(ax.y) * b.half_extents.x + std::abs(ay.y) * b.half_extents.y;
    return {{b.center.x - ex, b.center.y - ey}, {b.center.x + ex, b.center.y + ey}};
}

Vec2 closest_point(const Segment& s, Vec2 p) {
    const Vec2 ab = s.b - s.a;
    const double len2 = length_squared(ab);
    if (len2 == 0.0) return s.a;
    const double f = std::clamp(dot(p - s.a, ab) / len2, 0.0, 1.0);
    return s.a + ab * f;
}

Vec2 closest_point(const Box& b, Vec2 p) {
    const Vec2 ay = perp(b.axis);
    const Vec2 d = p - b.center;
    const double lx = std::clamp(dot(d, b.axis), -b.half_extents.x, b.half_extents.x);
    const double ly = std::clamp(dot(d, ay), -b.half_extents.y, b.half_extents.y);
    return b.center + b.axis * lx + ay * ly;
}

}  // namespace carom::physics
