#pragma once
// Static proximity of a disk to one other shape: how far apart, along which
// normal, touching where. The overlap solver pushes along these normals.
#include "carom/physics/geometry.hpp"

namespace carom::physics {

struct Proximity {
    double separation;  // surface to surface; negative when the shapes overlap
    Vec2 normal;        // unit, from the other shape towards the disk centre
    Vec2 point;         // the point of the other shape's surface closest to the disk
};

// Concentric disks are separated along +x (a fixed, documented choice).
Proximity proximity_disk_disk(Vec2 c, double r, Vec2 other_center, double other_radius);

// A centre exactly on the segment is pushed along the segment's left normal
// (perp(b - a)); a degenerate segment acts as a point.
//
// `bias` (segments and arcs): 0 is a wall from both sides. Otherwise the wall
// faces one side only, left of its direction of travel from a to b when
// bias > 0 (for an arc, which runs counterclockwise, its inside), right when
// bias < 0; it has no end circles, and a centre behind its face by less than
// |bias| is pushed out to the front. Farther behind, or past its ends, a disk
// does not touch it: the separation is then +infinity.
Proximity proximity_disk_segment(Vec2 c, double r, const Segment& s, double bias = 0.0);

// A centre exactly on the circle is pushed outwards; a centre at the circle's
// centre towards `a`.
Proximity proximity_disk_arc(Vec2 c, double r, const Arc& arc, double bias = 0.0);

// The face of the half-plane, from any depth (the solid side has no end).
Proximity proximity_disk_plane(Vec2 c, double r, const Plane& plane);

// A centre inside the box leaves through the nearest face (ties: +x, -x, +y, -y
// in the box's own frame), so a disk pushed deep into a wall still comes out
// on the side it is closest to.
Proximity proximity_disk_box(Vec2 c, double r, const Box& b);

}  // namespace carom::physics
