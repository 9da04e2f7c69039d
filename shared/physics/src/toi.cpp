#include "carom/physics/toi.hpp"

#include <algorithm>
#include <cmath>

#include "carom/physics/proximity.hpp"

namespace carom::physics {
namespace {

// Whether moving with v along a contact normal is an impact rather than
// resting or grazing contact (see toi.hpp).
bool approaches(Vec2 v, Vec2 normal) {
    return -dot(v, normal) > kMinApproachSpeed + kGrazingSlope * length(v);
}

// A shape the disk already touches is hit at t = 0 only when the disk moves into it.
std::optional<Impact> impact_if_approaching(Vec2 v, const Proximity& prox) {
    if (approaches(v, prox.normal)) return Impact{0.0, prox.normal};
    return std::nullopt;
}

// Point p moving with v against a circle (centre c, radius R) it starts outside of.
std::optional<Impact> toi_point_circle(Vec2 p, Vec2 v, Vec2 c, double radius, double t_max) {
    const Vec2 d = p - c;
    const double b = dot(d, v);
    if (b >= 0.0) return std::nullopt;  // not closing in
    const double a = dot(v, v);
    const double c0 = dot(d, d) - radius * radius;
    const double disc = b * b - a * c0;
    if (disc < 0.0) return std::nullopt;  // passes by
    // The smaller root (-b - sqrt(disc)) / a, written to avoid cancellation.
    double t = c0 / (-b + std::sqrt(disc));
    if (t < 0.0) t = 0.0;  // rounding at a touching start
    if (t > t_max) return std::nullopt;
    const Vec2 normal = normalize_or(d + v * t, normalize_or(d, Vec2{1.0, 0.0}));
    if (!approaches(v, normal)) return std::nullopt;
    return Impact{t, normal};
}

// Point p moving with v against a circle (centre c, radius R) from within:
// the time it leaves the circle, if it is inside it then (it may enter it
// first, when it starts outside).
std::optional<Impact> toi_point_circle_exit(Vec2 p, Vec2 v, Vec2 c, double radius, double t_max) {
    const Vec2 d = p - c;
    const double a = dot(v, v);
    if (a == 0.0) return std::nullopt;
    const double b = dot(d, v);
    const double c0 = dot(d, d) - radius * radius;
    if (b > 0.0 && c0 >= 0.0) return std::nullopt;  // outside and moving away
    const double disc = b * b - a * c0;
    if (disc < 0.0) return std::nullopt;  // passes by
    const double root = std::sqrt(disc);
    // The larger root (-b + sqrt(disc)) / a, written to avoid cancellation.
    const double t = b > 0.0 ? c0 / (-b - root) : (-b + root) / a;
    if (t < 0.0 || t > t_max) return std::nullopt;
    const Vec2 q = d + v * t;
    const Vec2 normal = -normalize_or(q, normalize_or(v, Vec2{1.0, 0.0}));
    if (!approaches(v, normal)) return std::nullopt;
    return Impact{t, normal};
}

// Keeps the earlier of two impacts; on a tie the one found first.
void keep_earliest(std::optional<Impact>& best, const std::optional<Impact>& candidate) {
    if (candidate && (!best || candidate->t < best->t)) best = candidate;
}

// The front face of a one-sided wall, `h` ahead of the centre along its
// normal n (facing the disk), reached when h shrinks to r.
std::optional<Impact> toi_front_face(double h, double r, Vec2 v, Vec2 n, double t_max) {
    if (!(h > 0.0) || !approaches(v, n)) return std::nullopt;
    const double t = std::max(0.0, (h - r) / -dot(v, n));
    if (t > t_max) return std::nullopt;
    return Impact{t, n};
}

std::optional<Impact> toi_one_sided_segment(Vec2 p, double r, Vec2 v, const Segment& s,
                                            double t_max, double bias) {
    const Proximity prox = proximity_disk_segment(p, r, s, bias);
    if (prox.separation <= 0.0) return impact_if_approaching(v, prox);
    const Vec2 ab = s.b - s.a;
    const double len = length(ab);
    const Vec2 u = ab / len;
    const Vec2 n = prox.normal;
    auto hit = toi_front_face(dot(p - s.a, n), r, v, n, t_max);
    if (!hit) return std::nullopt;
    const double along = dot(p + v * hit->t - s.a, u);
    if (along < 0.0 || along > len) return std::nullopt;
    return hit;
}

std::optional<Impact> toi_one_sided_arc(Vec2 p, double r, Vec2 v, const Arc& arc, double t_max,
                                        double bias) {
    // The inside is concave: a disk leaving one part of it may still reach another.
    const Proximity prox = proximity_disk_arc(p, r, arc, bias);
    if (prox.separation <= 0.0) {
        if (auto now = impact_if_approaching(v, prox)) return now;
    }
    const Vec2 d = p - arc.center;
    std::optional<Impact> hit;
    if (bias > 0.0) {
        // Facing inwards: the centre inside, moving out to radius - r.
        if (arc.radius > r) hit = toi_point_circle_exit(p, v, arc.center, arc.radius - r, t_max);
    } else if (length_squared(d) > arc.radius * arc.radius) {
        hit = toi_point_circle(p, v, arc.center, arc.radius + r, t_max);
    }
    if (!hit || !in_sector(arc, d + v * hit->t)) return std::nullopt;
    return hit;
}

}  // namespace

std::optional<Impact> toi_disk_disk(Vec2 p, double r, Vec2 v, Vec2 other_center,
                                    double other_radius, double t_max) {
    // Squared distances first: most candidate pairs are apart and need no sqrt.
    const Vec2 d = p - other_center;
    const double reach = r + other_radius;
    if (dot(d, d) <= reach * reach) {
        return impact_if_approaching(v, proximity_disk_disk(p, r, other_center, other_radius));
    }
    return toi_point_circle(p, v, other_center, reach, t_max);
}

std::optional<Impact> toi_disk_arc(Vec2 p, double r, Vec2 v, const Arc& arc, double t_max,
                                   std::uint8_t seam_corners, double bias) {
    if (bias != 0.0) return toi_one_sided_arc(p, r, v, arc, t_max, bias);
    // Unlike the other shapes, an arc is concave on its inside: a disk that
    // touches it there and moves away may still reach another part of it.
    const Proximity prox = proximity_disk_arc(p, r, arc);
    if (prox.separation <= 0.0) {
        if (auto now = impact_if_approaching(v, prox)) return now;
    }

    std::optional<Impact> best;
    // The faces of the annular sector, within the arc's angular range: a
    // centre reaching radius + r from outside, or radius - r from inside
    // (where it may have come in through the arc's opening). Into the band
    // from its sides, the path meets an end circle first.
    const Vec2 d = p - arc.center;
    const auto keep_in_sector = [&](const std::optional<Impact>& face) {
        if (face && in_sector(arc, d + v * face->t)) keep_earliest(best, face);
    };
    if (dot(d, d) > arc.radius * arc.radius)
        keep_in_sector(toi_point_circle(p, v, arc.center, arc.radius + r, t_max));
    if (arc.radius > r)
        keep_in_sector(toi_point_circle_exit(p, v, arc.center, arc.radius - r, t_max));
    if ((seam_corners & 1u) == 0) keep_earliest(best, toi_point_circle(p, v, arc.a, r, t_max));
    if ((seam_corners & 2u) == 0) keep_earliest(best, toi_point_circle(p, v, arc.b, r, t_max));
    return best;
}

std::optional<Impact> toi_disk_plane(Vec2 p, double r, Vec2 v, const Plane& plane, double t_max) {
    const Proximity prox = proximity_disk_plane(p, r, plane);
    if (prox.separation <= 0.0) return impact_if_approaching(v, prox);
    return toi_front_face(prox.separation + r, r, v, plane.normal, t_max);
}

std::optional<Impact> toi_disk_segment(Vec2 p, double r, Vec2 v, const Segment& s, double t_max,
                                       std::uint8_t seam_corners, double bias) {
    if (bias != 0.0) return toi_one_sided_segment(p, r, v, s, t_max, bias);
    const Proximity prox = proximity_disk_segment(p, r, s);
    if (prox.separation <= 0.0) return impact_if_approaching(v, prox);

    const Vec2 ab = s.b - s.a;
    const double len = length(ab);
    if (len == 0.0) return toi_point_circle(p, v, s.a, r, t_max);

    std::optional<Impact> best;
    // The face on the disk's side, offset by r, if the disk moves towards it.
    // A centre already within r of the line (by rounding, since the disk does
    // not overlap) hits at once: skipping it would let the disk tunnel.
    const Vec2 u = ab / len;
    const Vec2 n = perp(u);
    const double h = dot(p - s.a, n);
    const double vh = dot(v, n);
    if (h != 0.0 && approaches(v, h > 0.0 ? n : -n)) {
        const double t = std::max(0.0, (std::abs(h) - r) / std::abs(vh));
        if (t <= t_max) {
            const double along = dot(p + v * t - s.a, u);
            if (along >= 0.0 && along <= len) best = Impact{t, h > 0.0 ? n : -n};
        }
    }
    if ((seam_corners & 1u) == 0) keep_earliest(best, toi_point_circle(p, v, s.a, r, t_max));
    if ((seam_corners & 2u) == 0) keep_earliest(best, toi_point_circle(p, v, s.b, r, t_max));
    return best;
}

std::optional<Impact> toi_disk_box(Vec2 p, double r, Vec2 v, const Box& b, double t_max,
                                   std::uint8_t seam_corners) {
    const Proximity prox = proximity_disk_box(p, r, b);
    if (prox.separation <= 0.0) return impact_if_approaching(v, prox);

    // Work in the box's frame, where it is axis-aligned and centred.
    const Vec2 ax = b.axis;
    const Vec2 ay = perp(b.axis);
    const Vec2 d = p - b.center;
    const Vec2 lp{dot(d, ax), dot(d, ay)};
    const Vec2 lv{dot(v, ax), dot(v, ay)};
    const double hx = b.half_extents.x;
    const double hy = b.half_extents.y;

    std::optional<Impact> best;
    // A face of the rounded box: the plane r beyond the box face at `half`
    // along one local axis, valid where the other coordinate lies within the
    // box's extent. A centre past the box face but within r of it (by
    // rounding, since the disk does not overlap) hits at once.
    auto face = [&](double pos, double vel, double other_pos, double other_vel, double half,
                    double other_half, Vec2 local_normal) {
        const double side = local_normal.x + local_normal.y;  // +1 or -1
        if (side * pos < half || !approaches(lv, local_normal)) return;
        const double t = std::max(0.0, (side * pos - (half + r)) / (-side * vel));
        if (t > t_max) return;
        const double at = other_pos + other_vel * t;
        if (at < -other_half || at > other_half) return;
        keep_earliest(best, Impact{t, local_normal});
    };
    face(lp.x, lv.x, lp.y, lv.y, hx, hy, {1.0, 0.0});
    face(lp.x, lv.x, lp.y, lv.y, hx, hy, {-1.0, 0.0});
    face(lp.y, lv.y, lp.x, lv.x, hy, hx, {0.0, 1.0});
    face(lp.y, lv.y, lp.x, lv.x, hy, hx, {0.0, -1.0});
    const Vec2 corners[4] = {{hx, hy}, {-hx, hy}, {-hx, -hy}, {hx, -hy}};
    for (unsigned k = 0; k < 4; ++k) {
        if ((seam_corners & (1u << k)) == 0)
            keep_earliest(best, toi_point_circle(lp, lv, corners[k], r, t_max));
    }

    if (best) best->normal = ax * best->normal.x + ay * best->normal.y;
    return best;
}

}  // namespace carom::physics
