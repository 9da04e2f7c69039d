#include "carom/physics/geometry.hpp"

#include <algorithm>
#include <cmath>

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

bool in_sector(const Arc& arc, Vec2 d) {
    const Vec2 u = arc.a - arc.center;
    const Vec2 w = arc.b - arc.center;
    const double from_a = cross(u, d);  // >= 0: d is counterclockwise of a (within a half turn)
    const double to_b = cross(d, w);    // >= 0: b is counterclockwise of d (within a half turn)
    const double turn = cross(u, w);
    if (turn > 0.0) return from_a >= 0.0 && to_b >= 0.0;  // less than half a turn
    if (turn < 0.0) return from_a >= 0.0 || to_b >= 0.0;  // more than half a turn
    // Exactly half a turn (a and b opposite): the side counterclockwise of a.
    return from_a >= 0.0;
}

Aabb bounds_of(const Arc& arc) {
    // The ends, and each extreme of the circle (+x, +y, -x, -y) the arc passes.
    Aabb box = bounds_of(Segment{arc.a, arc.b});
    const Vec2 extremes[4] = {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}};
    for (const Vec2 e : extremes) {
        if (!in_sector(arc, e)) continue;
        const Vec2 q = arc.center + e * arc.radius;
        box.min = {std::min(box.min.x, q.x), std::min(box.min.y, q.y)};
        box.max = {std::max(box.max.x, q.x), std::max(box.max.y, q.y)};
    }
    return box;
}

Vec2 closest_point(const Arc& arc, Vec2 p) {
    const Vec2 d = p - arc.center;
    const double distance = length(d);
    if (distance > 0.0 && in_sector(arc, d)) return arc.center + d * (arc.radius / distance);
    if (distance == 0.0) return arc.a;
    return length_squared(p - arc.b) < length_squared(p - arc.a) ? arc.b : arc.a;
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
