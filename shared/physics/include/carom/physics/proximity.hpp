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
Proximity proximity_disk_segment(Vec2 c, double r, const Segment& s);

// A centre inside the box leaves through the nearest face (ties: +x, -x, +y, -y
// in the box's own frame), so a disk pushed deep into a wall still comes out
// on the side it is closest to.
Proximity proximity_disk_box(Vec2 c, double r, const Box& b);

}  // namespace carom::physics
