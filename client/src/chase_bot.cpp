#include "carom/client/chase_bot.hpp"

#include "carom/game/nearest.hpp"

namespace carom::client {

double kick_distance(const game::Tuning& tuning) {
    return tuning.player_radius + tuning.puck_radius + 2.0;
}

game::Vec2 opposing_goal(const game::Map& map, game::Team team) {
    const game::Team defender = game::other(team);
    for (const game::Goal& goal : map.goals) {
        if (goal.defender == defender) return game::mouth_centre(goal);
    }
    return map.size * 0.5;  // validated maps always have both goals
}

game::Input chase_input(const Frame& frame, game::Slot slot, std::uint32_t puck_count,
                        game::Vec2 goal, double reach) {
    const std::size_t me_index = DiskLayout{puck_count, 0}.of_slot(slot);
    if (puck_count == 0 || me_index >= frame.disks.size()) return game::Input::idle();
    const game::Vec2 me = frame.disks[me_index].position;

    const auto puck_at = [&frame](std::uint32_t p) { return frame.disks[p].position; };
    const std::uint32_t nearest = *game::nearest_index(puck_count, me, puck_at);  // puck_count > 0
    const game::Vec2 puck = puck_at(nearest);
    if (physics::length_squared(puck - me) <= reach * reach)
        return game::Input::toward(puck - me, /*kick=*/true);

    // Aim a little behind the puck as seen from the goal, so that the kick
    // (which pushes the puck away from the kicker) sends it goalwards.
    const game::Vec2 behind = physics::normalize_or(puck - goal, game::Vec2{});
    const game::Vec2 target = puck + behind * (0.5 * reach);
    return game::Input::toward(target - me);
}

}  // namespace carom::client
