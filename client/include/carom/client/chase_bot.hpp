#pragma once
// A headless bot that needs nothing but the snapshot frames a client
// receives: run to the nearest puck, come at it from the side away from the
// opposing goal, and kick when it is within reach. Load tests drive their
// simulated players with it.
#include <cstdint>

#include "carom/client/frame.hpp"
#include "carom/game/input.hpp"
#include "carom/game/map.hpp"
#include "carom/game/match.hpp"

namespace carom::client {

// Centre distance that kicks: player radius + puck radius + 2 units of slack
// (the match itself kicks within player + puck radius + kick_reach).
double kick_distance(const game::Tuning& tuning);

// The centre of the goal that `team` attacks (the one the other team defends).
game::Vec2 opposing_goal(const game::Map& map, game::Team team);

// The input for `slot` in `frame` (disks: `puck_count` pucks, then one per
// slot). Idle when the frame has no puck or no disk for the slot.
game::Input chase_input(const Frame& frame, game::Slot slot, std::uint32_t puck_count,
                        game::Vec2 opposing_goal, double kick_distance);

}  // namespace carom::client
