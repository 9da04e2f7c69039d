#include "carom/game/map.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "carom/physics/geometry.hpp"
#include "goal_reach.hpp"

namespace carom::game {
namespace {

bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

std::string at(const char* list, std::size_t i, const char* field) {
    return std::string(list) + "[" + std::to_string(i) + "]." + field;
}

std::string num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// "field: value V is outside [lo, hi]"; empty when inside (NaN is outside).
std::string range(const std::string& field, double v, double lo, double hi, const char* unit = "") {
    if (v >= lo && v <= hi) return {};
    return field + ": " + num(v) + " is outside [" + num(lo) + ", " + num(hi) + "]" + unit;
}

std::string point(const std::string& field, Vec2 p) {
    if (!finite(p)) return field + ": must be finite";
    if (std::abs(p.x) > limits::kCoordinateMax || std::abs(p.y) > limits::kCoordinateMax)
        return field + ": (" + num(p.x) + ", " + num(p.y) + ") is outside [-" +
               num(limits::kCoordinateMax) + ", " + num(limits::kCoordinateMax) + "]²";
    return {};
}

std::string validate_tuning(const Tuning& t) {
    struct Range {
        const char* name;
        double value, lo, hi;
        const char* unit;
    };
    using namespace limits;
    const Range ranges[] = {
        {"tuning.player_radius", t.player_radius, kRadiusMin, kRadiusMax, " units"},
        {"tuning.puck_radius", t.puck_radius, kRadiusMin, kRadiusMax, " units"},
        {"tuning.player_mass", t.player_mass, kMassMin, kMassMax, ""},
        {"tuning.puck_mass", t.puck_mass, kMassMin, kMassMax, ""},
        {"tuning.player_acceleration", t.player_acceleration, 0.0, kAccelerationMax, " units/s²"},
        {"tuning.player_max_speed", t.player_max_speed, kSpeedMin, kSpeedMax, " units/s"},
        {"tuning.kick_speed", t.kick_speed, 0.0, kKickSpeedMax, " units/s"},
        {"tuning.kick_reach", t.kick_reach, 0.0, kKickReachMax, " units"},
        // Drag is applied as v -= v * drag * dt: beyond the tick rate it would reverse motion.
        {"tuning.player_drag", t.player_drag, 0.0, kDragMax, " per second"},
        {"tuning.puck_drag", t.puck_drag, 0.0, kDragMax, " per second"},
        {"tuning.wall_restitution", t.wall_restitution, 0.0, 1.0, ""},
        {"tuning.player_restitution", t.player_restitution, 0.0, 1.0, ""},
        {"tuning.puck_restitution", t.puck_restitution, 0.0, 1.0, ""},
    };
    for (const Range& r : ranges)
        if (auto e = range(r.name, r.value, r.lo, r.hi, r.unit); !e.empty()) return e;
    if (t.kick_cooldown_ticks > kKickCooldownTicksMax)
        return "tuning.kick_cooldown_ticks: " + std::to_string(t.kick_cooldown_ticks) +
               " is outside [0, " + std::to_string(kKickCooldownTicksMax) + "]";
    return {};
}

// A disk of `radius` at `p`: inside the field and clear of every wall.
std::string placement(const Map& map, const std::string& field, Vec2 p, double radius,
                      const char* what) {
    if (p.x < radius || p.x > map.size.x - radius || p.y < radius || p.y > map.size.y - radius)
        return field + ": (" + num(p.x) + ", " + num(p.y) + ") puts a " + what + " of radius " +
               num(radius) + " outside the field [0, " + num(map.size.x) + "] × [0, " +
               num(map.size.y) + "]";
    const auto clear = [&](Vec2 q) {
        const Vec2 d = p - q;
        return d.x * d.x + d.y * d.y >= radius * radius;
    };
    for (std::size_t i = 0; i < map.boxes.size(); ++i)
        if (!clear(physics::closest_point(map.boxes[i], p)))
            return field + ": a " + what + " there overlaps boxes[" + std::to_string(i) + "]";
    for (std::size_t i = 0; i < map.segments.size(); ++i)
        if (!clear(physics::closest_point(map.segments[i], p)))
            return field + ": a " + what + " there overlaps segments[" + std::to_string(i) + "]";
    return {};
}

}  // namespace

std::string validate(const Map& map) {
    using namespace limits;
    if (map.name.empty() || map.name.size() > kNameBytes)
        return "name: " + std::to_string(map.name.size()) + " characters, must be 1 to " +
               std::to_string(kNameBytes);
    for (std::size_t i = 0; i < map.name.size(); ++i) {
        const auto c = static_cast<unsigned char>(map.name[i]);
        if (c < 0x20 || c > 0x7E)
            return "name: character " + std::to_string(i) + " (byte " + std::to_string(c) +
                   ") is not printable ASCII (0x20..0x7E)";
    }
    if (!finite(map.size)) return "size: width and height must be finite";
    if (auto e = range("size: width", map.size.x, kSizeMin, kSizeMax, " units"); !e.empty())
        return e;
    if (auto e = range("size: height", map.size.y, kSizeMin, kSizeMax, " units"); !e.empty())
        return e;
    if (map.team_size < 1 || map.team_size > kTeamSizeMax)
        return "team_size: must be in [1, 16], not " + std::to_string(map.team_size);
    if (map.match_seconds < 1 || map.match_seconds > kMatchSecondsMax)
        return "match_seconds: must be in [1, 86400], not " + std::to_string(map.match_seconds);
    if (map.score_limit > kScoreLimitMax)
        return "score_limit: " + std::to_string(map.score_limit) + " must be in [0, " +
               std::to_string(kScoreLimitMax) + "] (0: no limit)";
    if (map.boxes.size() > kBoxesMax)
        return "boxes: " + std::to_string(map.boxes.size()) + ", at most " +
               std::to_string(kBoxesMax);
    if (map.segments.size() > kSegmentsMax)
        return "segments: " + std::to_string(map.segments.size()) + ", at most " +
               std::to_string(kSegmentsMax);
    if (map.spawns.size() > kSpawnsMax)
        return "spawns: " + std::to_string(map.spawns.size()) + ", at most " +
               std::to_string(kSpawnsMax);
    for (std::size_t i = 0; i < map.boxes.size(); ++i) {
        const Box& b = map.boxes[i];
        if (!finite(b.center)) return at("boxes", i, "center: must be finite");
        if (auto e = point(at("boxes", i, "center"), b.center); !e.empty()) return e;
        if (!finite(b.half_extents) || b.half_extents.x < 0.0 || b.half_extents.y < 0.0)
            return at("boxes", i, "half_extents: must be finite and >= 0");
        if (auto e = point(at("boxes", i, "half_extents"), b.half_extents); !e.empty()) return e;
        if (!finite(b.axis) || (b.axis.x == 0.0 && b.axis.y == 0.0))
            return at("boxes", i, "axis: must be a finite non-zero vector");
        if (auto e = point(at("boxes", i, "axis"), b.axis); !e.empty()) return e;
        if (b.axis.x * b.axis.x + b.axis.y * b.axis.y < kAxisLengthMin * kAxisLengthMin)
            return at("boxes", i, "axis: shorter than ") + num(kAxisLengthMin);
    }
    for (std::size_t i = 0; i < map.segments.size(); ++i) {
        const Segment& s = map.segments[i];
        if (!finite(s.a) || !finite(s.b)) return at("segments", i, "a/b: must be finite");
        if (auto e = point(at("segments", i, "a"), s.a); !e.empty()) return e;
        if (auto e = point(at("segments", i, "b"), s.b); !e.empty()) return e;
        if (s.a == s.b) return at("segments", i, "b: must differ from a (zero length)");
    }
    if (map.goals.size() != 2) return "goals: need exactly two, one per team";
    if (map.goals[0].defender == map.goals[1].defender)
        return "goals: both goals are defended by the same team";
    const Vec2 centre = map.size * 0.5;
    for (std::size_t i = 0; i < map.goals.size(); ++i) {
        const Goal& g = map.goals[i];
        if (!finite(g.post_a) || !finite(g.post_b)) return at("goals", i, "posts: must be finite");
        if (auto e = point(at("goals", i, "post_a"), g.post_a); !e.empty()) return e;
        if (auto e = point(at("goals", i, "post_b"), g.post_b); !e.empty()) return e;
        if (g.post_a == g.post_b) return at("goals", i, "post_b: posts coincide");
        if (physics::cross(g.post_b - g.post_a, centre - g.post_a) == 0.0)
            return at("goals", i, "posts: the goal line passes through the field centre");
    }
    for (std::size_t i = 0; i < map.spawns.size(); ++i) {
        if (!finite(map.spawns[i].position)) return at("spawns", i, "position: must be finite");
    }
    for (const Team team : {Team::left, Team::right}) {
        std::uint32_t count = 0;
        for (const Spawn& s : map.spawns)
            count += s.team == team ? 1u : 0u;
        if (count < map.team_size) {
            return "spawns: team " + std::string(team == Team::left ? "left" : "right") + " has " +
                   std::to_string(count) + " spawn(s) for a team size of " +
                   std::to_string(map.team_size);
        }
    }
    if (map.puck_spawns.empty() || map.puck_spawns.size() > kPucksMax)
        return "puck_spawns: need between 1 and 16 pucks";
    for (std::size_t i = 0; i < map.puck_spawns.size(); ++i) {
        if (!finite(map.puck_spawns[i])) return at("puck_spawns", i, "must be finite");
    }
    if (std::string e = validate_tuning(map.tuning); !e.empty()) return e;
    // As a game: every player and puck starts on the field, clear of the walls.
    for (std::size_t i = 0; i < map.spawns.size(); ++i)
        if (auto e = placement(map, at("spawns", i, "position"), map.spawns[i].position,
                               map.tuning.player_radius, "player");
            !e.empty())
            return e;
    for (std::size_t i = 0; i < map.puck_spawns.size(); ++i)
        if (auto e = placement(map, "puck_spawns[" + std::to_string(i) + "]", map.puck_spawns[i],
                               map.tuning.puck_radius, "puck");
            !e.empty())
            return e;
    // No two of them start overlapping (touching is allowed).
    struct Start {
        std::string field;
        Vec2 position;
        double radius;
    };
    std::vector<Start> starts;
    for (std::size_t i = 0; i < map.spawns.size(); ++i)
        starts.push_back(
            {at("spawns", i, "position"), map.spawns[i].position, map.tuning.player_radius});
    for (std::size_t i = 0; i < map.puck_spawns.size(); ++i)
        starts.push_back(
            {"puck_spawns[" + std::to_string(i) + "]", map.puck_spawns[i], map.tuning.puck_radius});
    for (std::size_t i = 0; i < starts.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            const double reach = starts[i].radius + starts[j].radius;
            if (physics::length_squared(starts[i].position - starts[j].position) < reach * reach)
                return starts[i].field + ": overlaps " + starts[j].field + " (centres " +
                       num(std::sqrt(
                           physics::length_squared(starts[i].position - starts[j].position))) +
                       " apart, radii " + num(starts[j].radius) + " + " + num(starts[i].radius) +
                       ")";
        }
    }
    return detail::check_goals_reachable(map);
}

}  // namespace carom::game
