#include "carom/physics/proximity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carom::physics {

Proximity proximity_disk_disk(Vec2 c, double r, Vec2 other_center, double other_radius) {
    const Vec2 d = c - other_center;
    const double dist = length(d);
    const Vec2 n = dist > 0.0 ? d / dist : Vec2{1.0, 0.0};
    return {dist - r - other_radius, n, other_center + n * other_radius};
}

namespace {

constexpr double kApart = std::numeric_limits<double>::infinity();

// A one-sided wall's face, the centre `h` in front of it (negative: behind)
// along the front normal `n`, `point` the closest point of the face.
Proximity one_sided(double h, double r, Vec2 n, Vec2 point, double bias) {
    if (!(h > -std::abs(bias))) return {kApart, n, point};
    return {h - r, n, point};
}

}  // namespace

Proximity proximity_disk_segment(Vec2 c, double r, const Segment& s, double bias) {
    if (bias != 0.0) {
        const Vec2 ab = s.b - s.a;
        const double len = length(ab);
        const Vec2 u = ab / len;
        const Vec2 n = bias > 0.0 ? perp(u) : -perp(u);
        const double along = dot(c - s.a, u);
        const Vec2 q = s.a + u * std::clamp(along, 0.0, len);
        if (along < 0.0 || along > len) return {kApart, n, q};
        return one_sided(dot(c - s.a, n), r, n, q, bias);
    }
    const Vec2 q = closest_point(s, c);
    const Vec2 d = c - q;
    const double dist = length(d);
    Vec2 n{1.0, 0.0};
    if (dist > 0.0) {
        n = d / dist;
    } else {
        n = normalize_or(perp(s.b - s.a), n);
    }
    return {dist - r, n, q};
}

Proximity proximity_disk_arc(Vec2 c, double r, const Arc& arc, double bias) {
    const Vec2 d = c - arc.center;
    const double distance = length(d);
    if (bias != 0.0) {
        const Vec2 outward =
            distance > 0.0 ? d / distance : normalize_or(arc.a - arc.center, {1.0, 0.0});
        const Vec2 q = arc.center + outward * arc.radius;
        const Vec2 n = bias > 0.0 ? -outward : outward;  // left of travel is the inside
        if (!in_sector(arc, outward)) return {kApart, n, closest_point(arc, c)};
        const double h = bias > 0.0 ? arc.radius - distance : distance - arc.radius;
        return one_sided(h, r, n, q, bias);
    }
    const Vec2 q = closest_point(arc, c);
    const Vec2 dq = c - q;
    const double dist = length(dq);
    Vec2 n{1.0, 0.0};
    if (dist > 0.0) {
        n = dq / dist;
    } else {
        n = normalize_or(q - arc.center, n);  // on the circle: outwards
    }
    return {dist - r, n, q};
}

Proximity proximity_disk_plane(Vec2 c, double r, const Plane& plane) {
    const double h = dot(c, plane.normal) - plane.offset;
    return {h - r, plane.normal, c - plane.normal * h};
}

Proximity proximity_disk_box(Vec2 c, double r, const Box& b) {
    const Vec2 ax = b.axis;
    const Vec2 ay = perp(b.axis);
    const Vec2 d = c - b.center;
    const double lx = dot(d, ax);
    const double ly = dot(d, ay);
    const double hx = b.half_extents.x;
    const double hy = b.half_extents.y;

    if (std::abs(lx) <= hx && std::abs(ly) <= hy) {
        // Centre inside (or on the boundary): leave through the nearest face.
        // Candidates in the documented tie order +x, -x, +y, -y.
        struct Face {
            double depth;
            Vec2 local_normal;
            Vec2 local_point;
        };
        const Face faces[4] = {{hx - lx, {1.0, 0.0}, {hx, ly}},
                               {hx + lx, {-1.0, 0.0}, {-hx, ly}},
                               {hy - ly, {0.0, 1.0}, {lx, hy}},
                               {hy + ly, {0.0, -1.0}, {lx, -hy}}};
        const Face* best = &faces[0];
        for (const Face& f : faces) {
            if (f.depth < best->depth) best = &f;
        }
        const Vec2 n = ax * best->local_normal.x + ay * best->local_normal.y;
        const Vec2 point = b.center + ax * best->local_point.x + ay * best->local_point.y;
        return {-best->depth - r, n, point};
    }

    const Vec2 q = closest_point(b, c);
    const Vec2 dq = c - q;
    const double dist = length(dq);
    return {dist - r, dq / dist, q};
}

}  // namespace carom::physics
