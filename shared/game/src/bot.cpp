#include "carom/game/bot.hpp"

#include <limits>

namespace carom::game {
namespace {

// The active player of `team` nearest to `point`; ties to the lower slot.
std::optional<Slot> nearest_player(const Match& match, Team team, Vec2 point) {
    std::optional<Slot> best;
    double best_d2 = std::numeric_limits<double>::infinity();
    for (Slot s = 0; s < match.slot_count(); ++s) {
        if (!match.active(s) || match.team_of(s) != team) continue;
        const double d2 = physics::length_squared(match.player_disk(s).position - point);
        if (d2 < best_d2) {
            best_d2 = d2;
            best = s;
        }
    }
    return best;
}

}  // namespace

Input bot_input(const Match& match, Slot slot) {
    if (!match.active(slot) || match.phase() != Phase::playing) return Input::idle();
    // Like a person, a bot reacts every few ticks and holds its input between.
    if ((match.tick() + slot) % kBotThinkTicks != 0) return match.last_input(slot);
    return bot_decision(match, slot);
}

Input bot_decision(const Match& match, Slot slot) {
    if (!match.active(slot) || match.phase() != Phase::playing) return Input::idle();
    const Tuning& t = match.map().tuning;
    const Team team = match.team_of(slot);
    const Vec2 me = match.player_disk(slot).position;
    const Vec2 own_goal = mouth_centre(match.goal_of(team));
    const Vec2 their_goal = mouth_centre(match.goal_of(other(team)));

    // With two or more players, the one nearest its own goal keeps it.
    const bool has_mate = [&] {
        for (Slot s = 0; s < match.slot_count(); ++s) {
            if (s != slot && match.active(s) && match.team_of(s) == team) return true;
        }
        return false;
    }();
    const std::uint32_t threat = *match.nearest_puck(own_goal);  // a map has a puck
    const Vec2 threat_at = match.puck_disk(threat).position;
    if (has_mate && nearest_player(match, team, own_goal) == slot) {
        const double field = physics::length(their_goal - own_goal);
        const double threat_distance = physics::length(threat_at - own_goal);
        if (threat_distance > 0.3 * field) {
            // Guard a point a little in front of the goal, on the puck's line.
            const Vec2 guard =
                own_goal + physics::normalize_or(threat_at - own_goal, {}) * (0.12 * field);
            return Input::toward(guard - me);
        }
    }

    const std::uint32_t target = *match.nearest_puck(me);
    const Vec2 puck = match.puck_disk(target).position;
    const Vec2 shot = physics::normalize_or(their_goal - puck, {});
    const double contact = t.player_radius + t.puck_radius;
    const Vec2 behind = puck - shot * (contact + 0.5 * t.kick_reach);
    const Vec2 to_puck = puck - me;
    const double reach = contact + t.kick_reach;
    const bool in_reach = physics::length_squared(to_puck) <= reach * reach;
    // Lined up when the puck lies ahead of us towards their goal.
    const bool lined_up = physics::dot(physics::normalize_or(to_puck, {}), shot) > 0.8;
    if (in_reach && lined_up) return Input::toward(to_puck, true);
    // Against a wall there is no room behind the puck: go at it and kick it
    // free, it comes back off the wall.
    const Vec2 size = match.map().size;
    const double margin = t.player_radius;
    if (behind.x < margin || behind.x > size.x - margin || behind.y < margin ||
        behind.y > size.y - margin)
        return Input::toward(to_puck, in_reach);
    if (physics::length_squared(behind - me) < contact * contact)
        return Input::toward(to_puck, in_reach);
    return Input::toward(behind - me);
}

}  // namespace carom::game
