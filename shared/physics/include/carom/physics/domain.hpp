#pragma once
// The domain of the physics: the values for which the sweep is exact, that
// is, no disk passes through a wall or another disk at any angle. World
// refuses anything outside it (std::invalid_argument naming the value and
// the range), and its step keeps disks inside it.
//
// How each bound follows from the solver (toi.hpp) and from doubles:
//  - Coordinates. A double near 2^20 is exact to 2^-33 (1.2e-10): a
//    position's rounding stays below a tenth of the resting tolerances
//    (kMinApproachSpeed, the default overlap_tolerance, both 1e-9).
//  - Radii. At least 2^-10, so a radius is 2^23 times a position's
//    rounding, and at most 2^16, so a disk is small against the domain and
//    r² keeps the precision of a coordinate.
//  - Speeds. A path at a smaller angle than kGrazingSlope to a surface
//    grazes it and may sink into it by kGrazingSlope of its travel (plus
//    kMinApproachSpeed × tick) until the overlap solver lifts it out, which
//    happens by the end of the next tick. Passing through takes sinking by
//    a whole radius; capping the travel of one tick at kMaxTravelRadii
//    = 1 / (4 kGrazingSlope) radii keeps two ticks of sinking within half a
//    radius. kMaxSpeed, with ticks of at most kMaxTickSeconds, keeps a
//    tick's travel within the coordinate domain, so p + v·t stays as exact
//    as a coordinate.
// Units: world units (the caller's; the game's map units) and seconds.
#include <algorithm>

#include "carom/physics/toi.hpp"

namespace carom::physics::domain {

inline constexpr double kMaxCoordinate = 1048576.0;  // 2^20: |x|, |y| of positions,
                                                     // box centres and half extents,
                                                     // segment ends
inline constexpr double kMinRadius = 1.0 / 1024.0;   // 2^-10
inline constexpr double kMaxRadius = 65536.0;        // 2^16
inline constexpr double kMaxSpeed = 1048576.0;       // 2^20 units/s, |velocity|
inline constexpr double kMaxTickSeconds = 1.0;
inline constexpr double kMaxTravelRadii = 1.0 / (4.0 * kGrazingSlope);  // 250 000

// The fastest a disk of `radius` may move in a world whose tick is `tick_seconds`.
constexpr double max_speed(double radius, double tick_seconds) {
    return std::min(kMaxSpeed, kMaxTravelRadii * radius / tick_seconds);
}

}  // namespace carom::physics::domain
