#pragma once
#include "carom/physics/ids.hpp"
#include "carom/physics/vec2.hpp"

namespace carom::physics {

// One impact resolved during a step, in the order the step resolved them
// (time of impact, then ids), which is the same on every run.
struct Contact {
    double time;     // seconds since the start of the tick
    BodyId disk;     // the disk that was swept into `other`
    ShapeRef other;  // a disk with a higher index, or a static shape
    Vec2 point;      // on the surface of `other`
    Vec2 normal;     // unit, from `other` towards `disk`
    double impulse;  // normal impulse applied (mass * speed); 0 for a grazing touch
};

}  // namespace carom::physics
