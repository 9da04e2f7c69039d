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

// A circular arc: the points of the circle of `radius` around `center` from
// `a` counterclockwise to `b`, both on the circle (to rounding). A wall of no
// thickness, like a segment; a and b may be as close as the arc likes, but
// not equal (a full circle is not an arc).
struct Arc {
    Vec2 center;
    double radius = 1.0;
    Vec2 a;
    Vec2 b;
};

// Whether the direction `d` (from the centre) points into the arc's angular
// range, its ends included: cross products with the ends, no angle.
bool in_sector(const Arc& arc, Vec2 d);

// A half-plane: the side where dot(p, normal) < offset is solid, and a disk
// is kept where dot(centre, normal) - offset >= its radius. `normal` is a
// unit vector.
struct Plane {
    Vec2 normal{0.0, 1.0};
    double offset = 0.0;
};

Aabb bounds_of(const Segment& s);
Aabb bounds_of(const Box& b);
Aabb bounds_of(const Arc& arc);

// Closest point of a segment, a solid box or an arc to p. An arc's centre is
// equally near every point of it: its closest point is then `a`.
Vec2 closest_point(const Segment& s, Vec2 p);
Vec2 closest_point(const Box& b, Vec2 p);
Vec2 closest_point(const Arc& arc, Vec2 p);

}  // namespace carom::physics
