#pragma once
// Time of impact: a disk moving in a straight line against one other shape.
//
// Every function sweeps a disk (centre `p`, radius `r`, velocity `v`, all
// relative to the other shape) over t in [0, t_max] and returns the first t
// at which it touches that shape, with the contact normal pointing from the
// shape towards the disk. A disk that already touches or overlaps the shape
// at t = 0 hits at t = 0 if it moves into the shape and never otherwise, so
// a disk resting against a wall or sliding along it is not stopped by it.
// "Moves into" means an approach speed along the normal above
// kMinApproachSpeed + kGrazingSlope * speed: a path that meets a surface at
// a smaller angle than kGrazingSlope (radians) grazes it, which is what
// rounding makes of a disk sliding along a face past a corner or a seam.
// A grazing disk may sink into the surface by at most kGrazingSlope of its
// travel; the overlap solver lifts it out.
// A radius of 0 turns the sweep into a ray cast.
#include <cstdint>
#include <optional>

#include "carom/physics/geometry.hpp"

namespace carom::physics {

// Approach speeds at or below this (world units per second) count as resting
// contact, which keeps rounding noise from producing endless zero-time impacts.
inline constexpr double kMinApproachSpeed = 1e-9;
inline constexpr double kGrazingSlope = 1e-6;

struct Impact {
    double t;     // time of first contact, in [0, t_max]
    Vec2 normal;  // unit, from the other shape towards the disk
};

// Disk against a disk of radius `other_radius` centred at `other_center`.
// Concentric disks that start overlapped use the +x normal, as proximity does.
std::optional<Impact> toi_disk_disk(Vec2 p, double r, Vec2 v, Vec2 other_center,
                                    double other_radius, double t_max);

// Disk against a segment: the disk's centre against the capsule of radius r
// around the segment (two offset faces and two end circles).
// `seam_corners` (bit 0: end a, bit 1: end b) leaves out end circles where
// another shape continues the segment in a straight line, so a disk sliding
// over the seam meets no corner there (the World finds these seams).
// A segment with a `bias` faces one side only (proximity.hpp): only its
// front face is hit, from the front.
std::optional<Impact> toi_disk_segment(Vec2 p, double r, Vec2 v, const Segment& s, double t_max,
                                       std::uint8_t seam_corners = 0, double bias = 0.0);

// Disk against an arc: the centre against the arc inflated by r, an annular
// sector (the outer face at radius + r, the inner one at radius - r when
// that is positive) and the two end circles; `seam_corners` leaves out end
// circles as for segments (bit 0: a, bit 1: b). Hit from either side; with
// a `bias`, only its front face, from the front (proximity.hpp). The inside
// is concave: a disk touching it there and moving away is not stopped, but
// its later impact on another part of the arc is found.
std::optional<Impact> toi_disk_arc(Vec2 p, double r, Vec2 v, const Arc& arc, double t_max,
                                   std::uint8_t seam_corners = 0, double bias = 0.0);

// Disk against a half-plane: its face offset by r.
std::optional<Impact> toi_disk_plane(Vec2 p, double r, Vec2 v, const Plane& plane, double t_max);

// Disk against a solid box: the centre against the box rounded by r (four
// offset faces and four corner circles), so corners are hit as circles.
// `seam_corners` leaves out corner circles as for segments; bit k is the
// corner (+x,+y), (-x,+y), (-x,-y), (+x,-y) of the box's own frame.
std::optional<Impact> toi_disk_box(Vec2 p, double r, Vec2 v, const Box& b, double t_max,
                                   std::uint8_t seam_corners = 0);

}  // namespace carom::physics
