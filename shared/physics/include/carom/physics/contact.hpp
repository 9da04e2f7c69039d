#pragma once
#include "carom/physics/ids.hpp"
#include "carom/physics/vec2.hpp"

namespace carom::physics {

// One impact resolved during a step, in the order the step resolved them
// (time of impact, then ids), which is the same on every run.
// Units: world units (u), seconds, and the caller's unit of mass.
struct Contact {
    double time;     // s since the start of the tick, in [0, tick_seconds]
    BodyId disk;     // the disk that was swept into `other`
    ShapeRef other;  // a disk with a higher index, or a static shape
    Vec2 point;      // u, world coordinates, on the surface of `other`
    Vec2 normal;     // dimensionless unit vector, from `other` towards `disk`
    double impulse;  // mass × u/s: the normal impulse applied; 0 for a grazing touch
};

}  // namespace carom::physics
