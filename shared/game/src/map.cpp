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
Status range(const std::string& field, double v, double lo, double hi, const char* unit = "") {
    if (v >= lo && v <= hi) return {};
    return fail(field + ": " + num(v) + " is outside [" + num(lo) + ", " + num(hi) + "]" + unit);
}

Status point(const std::string& field, Vec2 p) {
    if (!finite(p)) return fail(field + ": must be finite");
    if (std::abs(p.x) > limits::kCoordinateMax || std::abs(p.y) > limits::kCoordinateMax)
        return fail(field + ": (" + num(p.x) + ", " + num(p.y) + ") is outside [-" +
                    num(limits::kCoordinateMax) + ", " + num(limits::kCoordinateMax) + "]²");
    return {};
}

Status validate_tuning(const Tuning& t) {
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
        if (auto e = range(r.name, r.value, r.lo, r.hi, r.unit); !e) return e;
    // Negative: as without the kick button held.
    if (t.kicking_acceleration >= 0.0 || std::isnan(t.kicking_acceleration))
        if (auto e = range("tuning.kicking_acceleration", t.kicking_acceleration, 0.0,
                           kAccelerationMax, " units/s²");
            !e)
            return e;
    if (t.kicking_drag >= 0.0 || std::isnan(t.kicking_drag))
        if (auto e = range("tuning.kicking_drag", t.kicking_drag, 0.0, kDragMax, " per second"); !e)
            return e;
    if (t.kick_cooldown_ticks > kKickCooldownTicksMax)
        return fail("tuning.kick_cooldown_ticks: " + std::to_string(t.kick_cooldown_ticks) +
                    " is outside [0, " + std::to_string(kKickCooldownTicksMax) + "]");
    return {};
}

Status validate_walls(const Map& map) {
    using namespace limits;
    if (map.walls.size() > kWallsMax)
        return fail("walls: " + std::to_string(map.walls.size()) + ", at most " +
                    std::to_string(kWallsMax));
    if (map.posts.size() > kPostsMax)
        return fail("posts: " + std::to_string(map.posts.size()) + ", at most " +
                    std::to_string(kPostsMax));
    for (std::size_t i = 0; i < map.walls.size(); ++i) {
        const Wall& w = map.walls[i];
        if (auto e = range(at("walls", i, "restitution"), w.restitution, 0.0, 1.0); !e) return e;
        if (auto e = range(at("walls", i, "bias"), w.bias, -kCoordinateMax, kCoordinateMax); !e)
            return e;
        switch (w.shape) {
            case Wall::Shape::segment:
            case Wall::Shape::arc:
                if (auto e = point(at("walls", i, "a"), w.a); !e) return e;
                if (auto e = point(at("walls", i, "b"), w.b); !e) return e;
                if (w.a == w.b) return fail(at("walls", i, "b: must differ from a (zero length)"));
                if (w.shape == Wall::Shape::segment) break;
                if (auto e = point(at("walls", i, "center"), w.center); !e) return e;
                {
                    const double ra = physics::length(w.a - w.center);
                    const double rb = physics::length(w.b - w.center);
                    if (!(std::abs(ra - rb) <= kArcEndSlack * ra))
                        return fail(at("walls", i, "center: a is ") + num(ra) + " from it, b " +
                                    num(rb) + " (an arc's ends lie on one circle)");
                    if (auto e = range(at("walls", i, "radius"), ra, kRadiusMin, kCoordinateMax);
                        !e)
                        return e;
                }
                break;
            case Wall::Shape::plane:
                if (auto e = point(at("walls", i, "normal"), w.normal); !e) return e;
                if (physics::length_squared(w.normal) < kAxisLengthMin * kAxisLengthMin)
                    return fail(at("walls", i, "normal: shorter than ") + num(kAxisLengthMin));
                if (auto e =
                        range(at("walls", i, "offset"), w.offset, -kCoordinateMax, kCoordinateMax);
                    !e)
                    return e;
                break;
            default:
                return fail(at("walls", i, "shape: unknown"));
        }
    }
    for (std::size_t i = 0; i < map.posts.size(); ++i) {
        const Post& p = map.posts[i];
        if (auto e = point(at("posts", i, "position"), p.position); !e) return e;
        if (auto e = range(at("posts", i, "radius"), p.radius, kRadiusMin, kRadiusMax, " units");
            !e)
            return e;
        if (auto e = range(at("posts", i, "restitution"), p.restitution, 0.0, 1.0); !e) return e;
    }
    return {};
}

physics::Arc arc_of(const Wall& w) {
    return {w.center, physics::length(w.a - w.center), w.a, w.b};
}

}  // namespace

Collision player_collision(Team team, bool other_team_kicks_off) {
    const std::uint32_t own = team == Team::left ? groups::kRed : groups::kBlue;
    const std::uint32_t barrier = team == Team::left ? groups::kRedKickoff : groups::kBlueKickoff;
    std::uint32_t mask = (groups::kAll & ~(groups::kRedKickoff | groups::kBlueKickoff)) |
                         groups::kC0 | groups::kC1 | groups::kC2 | groups::kC3;
    if (other_team_kicks_off) mask |= barrier;
    return {own, mask};
}

bool collides_with(const Collision& shape, std::uint32_t group, std::uint32_t mask) {
    return (shape.group & mask) != 0 && (group & shape.mask) != 0;
}

double distance_to_wall(const Wall& w, Vec2 p) {
    switch (w.shape) {
        case Wall::Shape::arc:
            return physics::length(p - physics::closest_point(arc_of(w), p));
        case Wall::Shape::plane: {
            const Vec2 n = w.normal / physics::length(w.normal);
            return physics::dot(p, n) - w.offset;  // negative behind the face
        }
        default:
            return physics::length(p - physics::closest_point(Segment{w.a, w.b}, p));
    }
}

namespace {

// A disk of `radius` at `p`: inside the field and clear of every wall.
Status placement(const Map& map, const std::string& field, Vec2 p, double radius, const char* what,
                 std::uint32_t group, std::uint32_t mask) {
    if (p.x < radius || p.x > map.size.x - radius || p.y < radius || p.y > map.size.y - radius)
        return fail(field + ": (" + num(p.x) + ", " + num(p.y) + ") puts a " + what +
                    " of radius " + num(radius) + " outside the field [0, " + num(map.size.x) +
                    "] × [0, " + num(map.size.y) + "]");
    const auto clear = [&](Vec2 q) {
        const Vec2 d = p - q;
        return d.x * d.x + d.y * d.y >= radius * radius;
    };
    for (std::size_t i = 0; i < map.boxes.size(); ++i)
        if (!clear(physics::closest_point(map.boxes[i], p)))
            return fail(field + ": a " + what + " there overlaps boxes[" + std::to_string(i) + "]");
    for (std::size_t i = 0; i < map.segments.size(); ++i)
        if (!clear(physics::closest_point(map.segments[i], p)))
            return fail(field + ": a " + what + " there overlaps segments[" + std::to_string(i) +
                        "]");
    // Walls and posts only where they stop this kind of disk (a line only
    // the puck meets may cross a player's spawn). A one-sided wall is only
    // checked from its front: a disk just behind one would be pushed through.
    for (std::size_t i = 0; i < map.walls.size(); ++i) {
        if (!collides_with(map.walls[i].collision, group, mask)) continue;
        if (distance_to_wall(map.walls[i], p) < radius)
            return fail(field + ": a " + what + " there overlaps walls[" + std::to_string(i) + "]");
    }
    for (std::size_t i = 0; i < map.posts.size(); ++i) {
        if (!collides_with(map.posts[i].collision, group, mask)) continue;
        const double reach = radius + map.posts[i].radius;
        if (physics::length_squared(p - map.posts[i].position) < reach * reach)
            return fail(field + ": a " + what + " there overlaps posts[" + std::to_string(i) + "]");
    }
    return {};
}

// The movable discs: in range, and placed like pucks (on the field, clear
// of the walls that stop them).
Status validate_discs(const Map& map) {
    using namespace limits;
    if (map.discs.size() > kDiscsMax)
        return fail("discs: " + std::to_string(map.discs.size()) + ", at most " +
                    std::to_string(kDiscsMax));
    for (std::size_t i = 0; i < map.discs.size(); ++i) {
        const Disc& d = map.discs[i];
        if (auto e = point(at("discs", i, "position"), d.position); !e) return e;
        if (auto e = range(at("discs", i, "radius"), d.radius, kRadiusMin, kRadiusMax, " units");
            !e)
            return e;
        if (auto e = range(at("discs", i, "mass"), d.mass, kMassMin, kMassMax); !e) return e;
        if (auto e = range(at("discs", i, "restitution"), d.restitution, 0.0, 1.0); !e) return e;
        if (auto e = range(at("discs", i, "drag"), d.drag, 0.0, kDragMax, " per second"); !e)
            return e;
        if (!finite(d.velocity)) return fail(at("discs", i, "velocity: must be finite"));
        if (auto e = range(at("discs", i, "velocity"), physics::length(d.velocity), 0.0, kSpeedMax,
                           " units/s");
            !e)
            return e;
        if (auto e = placement(map, at("discs", i, "position"), d.position, d.radius, "disc",
                               d.collision.group, d.collision.mask);
            !e)
            return e;
    }
    return {};
}

Status validate_name(const Map& map) {
    using namespace limits;
    if (map.name.empty() || map.name.size() > kNameBytes)
        return fail("name: " + std::to_string(map.name.size()) + " characters, must be 1 to " +
                    std::to_string(kNameBytes));
    for (std::size_t i = 0; i < map.name.size(); ++i) {
        const auto c = static_cast<unsigned char>(map.name[i]);
        if (c < 0x20 || c > 0x7E)
            return fail("name: character " + std::to_string(i) + " (byte " + std::to_string(c) +
                        ") is not printable ASCII (0x20..0x7E)");
    }
    return {};
}

Status validate_size(const Map& map) {
    using namespace limits;
    if (!finite(map.size)) return fail("size: width and height must be finite");
    if (auto e = range("size: width", map.size.x, kSizeMin, kSizeMax, " units"); !e) return e;
    if (auto e = range("size: height", map.size.y, kSizeMin, kSizeMax, " units"); !e) return e;
    return {};
}

// Team size, match length, score limit.
Status validate_rules(const Map& map) {
    using namespace limits;
    if (map.team_size < 1 || map.team_size > kTeamSizeMax)
        return fail("team_size: must be in [1, 16], not " + std::to_string(map.team_size));
    if (map.match_seconds < 1 || map.match_seconds > kMatchSecondsMax)
        return fail("match_seconds: must be in [1, 86400], not " +
                    std::to_string(map.match_seconds));
    if (map.score_limit > kScoreLimitMax)
        return fail("score_limit: " + std::to_string(map.score_limit) + " must be in [0, " +
                    std::to_string(kScoreLimitMax) + "] (0: no limit)");
    return {};
}

// The lengths of the box, segment and spawn lists, before their contents.
Status validate_list_sizes(const Map& map) {
    using namespace limits;
    if (map.boxes.size() > kBoxesMax)
        return fail("boxes: " + std::to_string(map.boxes.size()) + ", at most " +
                    std::to_string(kBoxesMax));
    if (map.segments.size() > kSegmentsMax)
        return fail("segments: " + std::to_string(map.segments.size()) + ", at most " +
                    std::to_string(kSegmentsMax));
    if (map.spawns.size() > kSpawnsMax)
        return fail("spawns: " + std::to_string(map.spawns.size()) + ", at most " +
                    std::to_string(kSpawnsMax));
    return {};
}

Status validate_boxes(const Map& map) {
    using namespace limits;
    for (std::size_t i = 0; i < map.boxes.size(); ++i) {
        const Box& b = map.boxes[i];
        if (!finite(b.center)) return fail(at("boxes", i, "center: must be finite"));
        if (auto e = point(at("boxes", i, "center"), b.center); !e) return e;
        // The physics takes no flat box (0 wide or high): refused here, with the field.
        if (!finite(b.half_extents) || !(b.half_extents.x > 0.0) || !(b.half_extents.y > 0.0))
            return fail(at("boxes", i, "half_extents: must be finite and > 0"));
        if (auto e = point(at("boxes", i, "half_extents"), b.half_extents); !e) return e;
        if (!finite(b.axis) || (b.axis.x == 0.0 && b.axis.y == 0.0))
            return fail(at("boxes", i, "axis: must be a finite non-zero vector"));
        if (auto e = point(at("boxes", i, "axis"), b.axis); !e) return e;
        if (b.axis.x * b.axis.x + b.axis.y * b.axis.y < kAxisLengthMin * kAxisLengthMin)
            return fail(at("boxes", i, "axis: shorter than ") + num(kAxisLengthMin));
    }
    return {};
}

Status validate_segments(const Map& map) {
    for (std::size_t i = 0; i < map.segments.size(); ++i) {
        const Segment& s = map.segments[i];
        if (!finite(s.a) || !finite(s.b)) return fail(at("segments", i, "a/b: must be finite"));
        if (auto e = point(at("segments", i, "a"), s.a); !e) return e;
        if (auto e = point(at("segments", i, "b"), s.b); !e) return e;
        if (s.a == s.b) return fail(at("segments", i, "b: must differ from a (zero length)"));
    }
    return {};
}

// Two goals, one per team, whose lines miss the field's centre.
Status validate_goals(const Map& map) {
    if (map.goals.size() != 2) return fail("goals: need exactly two, one per team");
    if (map.goals[0].defender == map.goals[1].defender)
        return fail("goals: both goals are defended by the same team");
    const Vec2 centre = map.size * 0.5;
    for (std::size_t i = 0; i < map.goals.size(); ++i) {
        const Goal& g = map.goals[i];
        if (!finite(g.post_a) || !finite(g.post_b))
            return fail(at("goals", i, "posts: must be finite"));
        if (auto e = point(at("goals", i, "post_a"), g.post_a); !e) return e;
        if (auto e = point(at("goals", i, "post_b"), g.post_b); !e) return e;
        if (g.post_a == g.post_b) return fail(at("goals", i, "post_b: posts coincide"));
        if (physics::cross(g.post_b - g.post_a, centre - g.post_a) == 0.0)
            return fail(at("goals", i, "posts: the goal line passes through the field centre"));
    }
    return {};
}

// Finite player spawns, enough for each team, then the pucks' (1 to kPucksMax, finite).
Status validate_spawns(const Map& map) {
    using namespace limits;
    for (std::size_t i = 0; i < map.spawns.size(); ++i) {
        if (!finite(map.spawns[i].position))
            return fail(at("spawns", i, "position: must be finite"));
    }
    for (const Team team : {Team::left, Team::right}) {
        std::uint32_t count = 0;
        for (const Spawn& s : map.spawns)
            count += s.team == team ? 1u : 0u;
        if (count < map.team_size) {
            return fail("spawns: team " + std::string(team == Team::left ? "left" : "right") +
                        " has " + std::to_string(count) + " spawn(s) for a team size of " +
                        std::to_string(map.team_size));
        }
    }
    if (map.puck_spawns.empty() || map.puck_spawns.size() > kPucksMax)
        return fail("puck_spawns: need between 1 and 16 pucks");
    for (std::size_t i = 0; i < map.puck_spawns.size(); ++i) {
        if (!finite(map.puck_spawns[i])) return fail(at("puck_spawns", i, "must be finite"));
    }
    return {};
}

// As a game: every player and puck starts on the field, clear of the walls.
Status validate_spawn_placements(const Map& map) {
    for (std::size_t i = 0; i < map.spawns.size(); ++i) {
        const Collision player = player_collision(map.spawns[i].team, false);
        if (auto e = placement(map, at("spawns", i, "position"), map.spawns[i].position,
                               map.tuning.player_radius, "player", player.group, player.mask);
            !e)
            return e;
    }
    for (std::size_t i = 0; i < map.puck_spawns.size(); ++i)
        if (auto e = placement(map, "puck_spawns[" + std::to_string(i) + "]", map.puck_spawns[i],
                               map.tuning.puck_radius, "puck", map.puck_collision.group,
                               map.puck_collision.mask);
            !e)
            return e;
    return {};
}

// No two of the players, pucks and discs start overlapping (touching is
// allowed), unless their collision groups keep them apart (a disc only the
// ball meets may sit on a player's spawn).
Status validate_starts_apart(const Map& map) {
    struct Start {
        std::string field;
        Vec2 position;
        double radius;
        Collision collision;
    };
    const bool grouped = map.uses_groups();
    constexpr Collision kEverything{0xFFFFFFFFu, 0xFFFFFFFFu};
    std::vector<Start> starts;
    for (std::size_t i = 0; i < map.spawns.size(); ++i)
        starts.push_back({at("spawns", i, "position"), map.spawns[i].position,
                          map.tuning.player_radius,
                          grouped ? player_collision(map.spawns[i].team, false) : kEverything});
    for (std::size_t i = 0; i < map.puck_spawns.size(); ++i)
        starts.push_back({"puck_spawns[" + std::to_string(i) + "]", map.puck_spawns[i],
                          map.tuning.puck_radius, grouped ? map.puck_collision : kEverything});
    for (std::size_t i = 0; i < map.discs.size(); ++i)
        starts.push_back({at("discs", i, "position"), map.discs[i].position, map.discs[i].radius,
                          map.discs[i].collision});
    for (std::size_t i = 0; i < starts.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            const Start& a = starts[i];
            const Start& b = starts[j];
            if (!collides_with(a.collision, b.collision.group, b.collision.mask)) continue;
            const double reach = a.radius + b.radius;
            const double apart_squared = physics::length_squared(a.position - b.position);
            if (apart_squared < reach * reach)
                return fail(a.field + ": overlaps " + b.field + " (centres " +
                            num(std::sqrt(apart_squared)) + " apart, radii " + num(b.radius) +
                            " + " + num(a.radius) + ")");
        }
    }
    return {};
}

}  // namespace

Status validate(const Map& map) {
    // In this order: the first check that fails is the one reported, and the
    // placements rely on the radii and walls checked before them.
    if (auto e = validate_name(map); !e) return e;
    if (auto e = validate_size(map); !e) return e;
    if (auto e = validate_rules(map); !e) return e;
    if (auto e = validate_list_sizes(map); !e) return e;
    if (auto e = validate_boxes(map); !e) return e;
    if (auto e = validate_segments(map); !e) return e;
    if (auto e = validate_goals(map); !e) return e;
    if (auto e = validate_spawns(map); !e) return e;
    if (auto e = validate_tuning(map.tuning); !e) return e;
    if (auto e = validate_walls(map); !e) return e;
    if (auto e = validate_spawn_placements(map); !e) return e;
    if (auto e = validate_discs(map); !e) return e;
    if (auto e = validate_starts_apart(map); !e) return e;
    return detail::check_goals_reachable(map);
}

}  // namespace carom::game
