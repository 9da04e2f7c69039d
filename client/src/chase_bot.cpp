#include "carom/client/chase_bot.hpp"

namespace carom::client {

double kick_distance(const game::Tuning& tuning) {
    return tuning.player_radius + tuning.puck_radius + 2.0;
}

game::Vec2 opposing_goal(const game::Map& map, game::Team team) {
    const game::Team defender = game::other(team);
    for (const game::Goal& goal : map.goals) {
        if (goal.defender == defender) return (goal.post_a + goal.post_b) * 0.5;
    }
    return map.size * 0.5;  // validated maps always have both goals
}

game::Input chase_input(const Frame& frame, game::Slot slot, std::uint32_t puck_count,
                        game::Vec2 goal, double reach) {
    const std::size_t me_index = std::size_t{puck_count} + slot;
    if (puck_count == 0 || me_index >= frame.disks.size()) return game::Input::idle();
    const game::Vec2 me = frame.disks[me_index].position;

    game::Vec2 puck = frame.disks[0].position;
    double best = physics::length_squared(puck - me);
    for (std::uint32_t p = 1; p < puck_count; ++p) {
        const game::Vec2 candidate = frame.disks[p].position;
        const double d = physics::length_squared(candidate - me);
        if (d < best) {
            best = d;
            puck = candidate;
        }
    }
    if (best <= reach * reach) return game::Input::toward(puck - me, /*kick=*/true);

    // Aim a little behind the puck as seen from the goal, so that the kick
    // (which pushes the puck away from the kicker) sends it goalwards.
    const game::Vec2 behind = physics::normalize_or(puck - goal, game::Vec2{});
    const game::Vec2 target = puck + behind * (0.5 * reach);
    return game::Input::toward(target - me);
}

}  // namespace carom::client
