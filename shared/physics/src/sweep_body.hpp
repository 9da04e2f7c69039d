#pragma once
// One disk as the sweep sees it during a tick.
#include <cstdint>

#include "carom/physics/defs.hpp"
#include "carom/physics/vec2.hpp"

namespace carom::physics::detail {

// Per-disk bookkeeping of one sweep: each disk has its own clock `t`. One
// cache line, since the pair tests read two of them at random.
struct alignas(64) SweepBody {
    Vec2 position;  // at time t
    Vec2 velocity;  // the velocity it moves with (zero once parked)
    double t = 0.0;
    double radius = 0.0;  // copied from the disk, so pair tests stay in this array
    Filter filter;
    std::uint32_t version = 0;  // its impacts this tick: bumped whenever its path changes
    bool active = false;
    bool parked = false;
    bool immovable = false;  // infinite mass
};

}  // namespace carom::physics::detail
