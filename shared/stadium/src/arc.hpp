#pragma once
// A HaxBall segment's curve as a carom arc wall.
#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::stadium::detail {

// Bends the straight wall `w` (its ends a and b set) as HaxBall bends a
// segment: by curveF, the centre's distance left of the chord's middle in
// half-chords, when it is not 0; else by curve, the arc's angle in degrees,
// which bends the other way when negative (the ends swap, and the bias with
// them). A wall with neither stays straight. Refuses a curve outside
// (-360, 360) with the reason alone (the caller names the field).
Status bend(game::Wall& w, double curve_degrees, double curve_f);

}  // namespace carom::stadium::detail
