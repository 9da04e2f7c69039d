#include "smooth_corners.hpp"

#include <cmath>

namespace carom::physics::detail {
namespace {

Vec2 unit(Vec2 v) {
    return v / length(v);
}

void box_corners(const Box& b, Vec2 out[4]) {
    const Vec2 ax = b.axis * b.half_extents.x;
    const Vec2 ay = perp(b.axis) * b.half_extents.y;
    out[0] = b.center + ax + ay;
    out[1] = b.center - ax + ay;
    out[2] = b.center - ax - ay;
    out[3] = b.center + ax - ay;
}

}  // namespace

int corners_of(const StaticState& s, CornerEdges out[4]) {
    if (s.kind == ShapeKind::segment) {
        const Vec2 u = unit(s.segment.b - s.segment.a);
        out[0] = {s.segment.a, {u, {}}, 1};
        out[1] = {s.segment.b, {-u, {}}, 1};
        return 2;
    }
    Vec2 c[4];
    box_corners(s.box, c);
    for (int k = 0; k < 4; ++k) {
        out[k] = {c[k], {unit(c[(k + 1) % 4] - c[k]), unit(c[(k + 3) % 4] - c[k])}, 2};
    }
    return 4;
}

int edges_of(const StaticState& s, Edge out[4]) {
    if (s.kind == ShapeKind::segment) {
        out[0] = {s.segment.a, s.segment.b};
        return 1;
    }
    Vec2 c[4];
    box_corners(s.box, c);
    for (int k = 0; k < 4; ++k)
        out[k] = {c[k], c[(k + 1) % 4]};
    return 4;
}

bool continues(const Edge& edge, Vec2 corner, Vec2 leaving) {
    const Vec2 ab = edge.b - edge.a;
    const double len = length(ab);
    if (len == 0.0) return false;
    const double pad = 1e-9 * (1.0 + std::abs(corner.x) + std::abs(corner.y));
    // Collinear: parallel, and the corner on the edge's line.
    if (std::abs(cross(leaving, ab)) > 1e-9 * len) return false;
    if (std::abs(cross(leaving, edge.a - corner)) > pad) return false;
    // Runs on: starts at (or before) the corner and goes beyond it, away from
    // the shape whose edge leaves along `leaving`.
    const double ta = dot(edge.a - corner, -leaving);
    const double tb = dot(edge.b - corner, -leaving);
    return std::min(ta, tb) <= pad && std::max(ta, tb) > pad;
}

}  // namespace carom::physics::detail
