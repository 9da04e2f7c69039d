#pragma once
// Velocity response at one contact. Velocities only: positions are the
// sweep's and the overlap solver's business.
#include "carom/physics/defs.hpp"

namespace carom::physics::detail {

// Two disks touching along `normal` (unit, from b to a). Applies the normal
// impulse with restitution e and Coulomb friction mu, returns the normal
// impulse (0 when they are not approaching or both masses are infinite).
double respond_disk_disk(Vec2& va, double inv_mass_a, Vec2& vb, double inv_mass_b, Vec2 normal,
                         double e, double mu);

// A disk against a static shape, `normal` from the shape to the disk.
// Returns the normal impulse: mass times the change of normal speed, or just
// that change for an infinite-mass disk.
double respond_disk_static(Vec2& v, double inv_mass, Vec2 normal, double e, double mu,
                           WallResponse response);

}  // namespace carom::physics::detail
