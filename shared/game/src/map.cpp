#include "carom/game/map.hpp"

#include <cmath>
#include <string>

namespace carom::game {
namespace {

bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

std::string at(const char* list, std::size_t i, const char* field) {
    return std::string(list) + "[" + std::to_string(i) + "]." + field;
}

std::string validate_tuning(const Tuning& t) {
    struct Positive {
        const char* name;
        double value;
    };
    const Positive positives[] = {
        {"tuning.player_radius", t.player_radius},
        {"tuning.player_mass", t.player_mass},
        {"tuning.puck_radius", t.puck_radius},
        {"tuning.puck_mass", t.puck_mass},
        {"tuning.player_max_speed", t.player_max_speed},
    };
    for (const auto& p : positives) {
        if (!std::isfinite(p.value) || p.value <= 0.0)
            return std::string(p.name) + ": must be a finite number > 0";
    }
    const Positive non_negatives[] = {
        {"tuning.player_acceleration", t.player_acceleration},
        {"tuning.kick_speed", t.kick_speed},
        {"tuning.kick_reach", t.kick_reach},
    };
    for (const auto& p : non_negatives) {
        if (!std::isfinite(p.value) || p.value < 0.0)
            return std::string(p.name) + ": must be a finite number >= 0";
    }
    // Drag is applied as v -= v * drag * dt: beyond the tick rate it would reverse motion.
    const Positive drags[] = {{"tuning.player_drag", t.player_drag},
                              {"tuning.puck_drag", t.puck_drag}};
    for (const auto& p : drags) {
        if (!std::isfinite(p.value) || p.value < 0.0 || p.value > 60.0)
            return std::string(p.name) + ": must be in [0, 60] (per second)";
    }
    const Positive unit[] = {{"tuning.wall_restitution", t.wall_restitution},
                             {"tuning.player_restitution", t.player_restitution},
                             {"tuning.puck_restitution", t.puck_restitution}};
    for (const auto& p : unit) {
        if (!(p.value >= 0.0 && p.value <= 1.0)) return std::string(p.name) + ": must be in [0, 1]";
    }
    return {};
}

}  // namespace

std::string validate(const Map& map) {
    if (map.name.empty()) return "name: must not be empty";
    if (!finite(map.size) || map.size.x <= 0.0 || map.size.y <= 0.0)
        return "size: width and height must be finite and > 0";
    if (map.team_size < 1 || map.team_size > 16) return "team_size: must be in [1, 16]";
    if (map.match_seconds < 1 || map.match_seconds > 24 * 3600)
        return "match_seconds: must be in [1, 86400]";
    for (std::size_t i = 0; i < map.boxes.size(); ++i) {
        const Box& b = map.boxes[i];
        if (!finite(b.center)) return at("boxes", i, "center: must be finite");
        if (!finite(b.half_extents) || b.half_extents.x < 0.0 || b.half_extents.y < 0.0)
            return at("boxes", i, "half_extents: must be finite and >= 0");
        if (!finite(b.axis) || (b.axis.x == 0.0 && b.axis.y == 0.0))
            return at("boxes", i, "axis: must be a finite non-zero vector");
    }
    for (std::size_t i = 0; i < map.segments.size(); ++i) {
        const Segment& s = map.segments[i];
        if (!finite(s.a) || !finite(s.b)) return at("segments", i, "a/b: must be finite");
        if (s.a == s.b) return at("segments", i, "b: must differ from a (zero length)");
    }
    if (map.goals.size() != 2) return "goals: need exactly two, one per team";
    if (map.goals[0].defender == map.goals[1].defender)
        return "goals: both goals are defended by the same team";
    const Vec2 centre = map.size * 0.5;
    for (std::size_t i = 0; i < map.goals.size(); ++i) {
        const Goal& g = map.goals[i];
        if (!finite(g.post_a) || !finite(g.post_b)) return at("goals", i, "posts: must be finite");
        if (g.post_a == g.post_b) return at("goals", i, "post_b: posts coincide");
        if (physics::cross(g.post_b - g.post_a, centre - g.post_a) == 0.0)
            return at("goals", i, "posts: the goal line passes through the field centre");
    }
    for (std::size_t i = 0; i < map.spawns.size(); ++i) {
        if (!finite(map.spawns[i].position)) return at("spawns", i, "position: must be finite");
    }
    for (const Team team : {Team::left, Team::right}) {
        std::uint32_t count = 0;
        for (const Spawn& s : map.spawns) count += s.team == team ? 1u : 0u;
        if (count < map.team_size) {
            return "spawns: team " + std::string(team == Team::left ? "left" : "right") +
                   " has " + std::to_string(count) + " spawn(s) for a team size of " +
                   std::to_string(map.team_size);
        }
    }
    if (map.puck_spawns.empty() || map.puck_spawns.size() > 16)
        return "puck_spawns: need between 1 and 16 pucks";
    for (std::size_t i = 0; i < map.puck_spawns.size(); ++i) {
        if (!finite(map.puck_spawns[i])) return at("puck_spawns", i, "must be finite");
    }
    return validate_tuning(map.tuning);
}

}  // namespace carom::game
