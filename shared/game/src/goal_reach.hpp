#pragma once
// Whether a puck can reach the goals: part of checking a map as a game.
#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::game::detail {

// Succeeds when, from every puck spawn, a puck-sized disk can move to behind
// each goal's line between its posts; otherwise "goals[i]: ..." naming the
// goal and the puck spawn. Decided on a grid (see goal_reach.cpp).
Status check_goals_reachable(const Map& map);

}  // namespace carom::game::detail
