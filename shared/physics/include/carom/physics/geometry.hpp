#pragma once
// The static shapes as plain geometry, shared by the sweep, overlap and query code.
#include "carom/physics/vec2.hpp"

namespace carom::physics {

struct Aabb {
    Vec2 min;
    Vec2 max;
};

// Bitwise rather than short-circuit: in a broadphase, whether two boxes
// overlap is a coin flip that branch prediction cannot learn.
constexpr bool overlaps(const Aabb& a, const Aabb& b) {
    return (a.min.x <= b.max.x) & (b.min.x <= a.max.x) & (a.min.y <= b.max.y) &
           (b.min.y <= a.max.y);
}

struct Segment {
    Vec2 a;
    Vec2 b;
};

// A box rotated so that its local x axis is `axis` (a unit vector; {1, 0} for
// an axis-aligned box). Orientation is a vector, not an angle, so that no
// trigonometry is ever needed.
struct Box {
    Vec2 center;
    Vec2 half_extents;
    Vec2 axis{1.0, 0.0};
};

Aabb bounds_of(const Segment& s);
Aabb bounds_of(const Box& b);

// Closest point of a segment or a solid box to p.
Vec2 closest_point(const Segment& s, Vec2 p);
Vec2 closest_point(const Box& b, Vec2 p);

}  // namespace carom::physics
