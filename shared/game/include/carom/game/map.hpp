#pragma once
// A map as the game sees it: walls, goals, spawns and the tuning of the match.
// Maps are data (schemas/map.fbs, written as JSON); this is the decoded form,
// so the game itself needs nothing but the standard library.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "carom/physics/geometry.hpp"

namespace carom::game {

using physics::Box;
using physics::Segment;
using physics::Vec2;

enum class Team : std::uint8_t { left = 0, right = 1 };

constexpr Team other(Team t) {
    return t == Team::left ? Team::right : Team::left;
}
constexpr std::uint8_t index_of(Team t) {
    return static_cast<std::uint8_t>(t);
}

// The goal `defender` protects. A puck whose centre crosses the line between
// the posts, from the field side, scores for the other team.
struct Goal {
    Team defender = Team::left;
    Vec2 post_a;
    Vec2 post_b;
};

// The middle of the goal line: where bots aim and what they defend.
inline Vec2 mouth_centre(const Goal& goal) {
    return (goal.post_a + goal.post_b) * 0.5;
}

struct Spawn {
    Team team = Team::left;
    Vec2 position;
};

// How the match feels: sizes, masses, movement and kicks, in map units and
// seconds. A map may change any of them (a "hard kicks" map raises kick_speed).
struct Tuning {
    double player_radius = 2.0;
    double player_mass = 4.0;
    double puck_radius = 1.25;
    double puck_mass = 1.0;
    double player_acceleration = 120.0;  // units/s² while a direction is held
    double player_max_speed = 40.0;      // units/s
    double player_drag = 3.0;            // fraction of velocity lost per second
    double puck_drag = 0.15;
    double kick_speed = 90.0;  // velocity change given to the puck, units/s
    double kick_reach = 1.5;   // gap between player and puck edges that still kicks
    std::uint32_t kick_cooldown_ticks = 20;
    double wall_restitution = 0.9;
    double player_restitution = 0.5;
    double puck_restitution = 1.0;
};

struct Map {
    std::string name;
    Vec2 size;  // the field is [0, size.x] × [0, size.y]
    std::vector<Box> boxes;
    std::vector<Segment> segments;
    std::vector<Goal> goals;
    std::vector<Spawn> spawns;
    std::vector<Vec2> puck_spawns;
    std::uint32_t team_size = 1;
    std::uint32_t match_seconds = 180;
    std::uint32_t score_limit = 7;  // 0: no limit
    Tuning tuning;
};

// The range of every value a map may hold (schemas/PROTOCOL.md, Maps). They
// keep the game playable and every coordinate, size and speed far inside
// the range where the physics is exact; validate() refuses anything outside
// with the field and the range, and the decoder refuses oversized lists
// before it allocates them.
namespace limits {
inline constexpr std::size_t kNameBytes = 64;  // 1..64 printable ASCII characters (0x20..0x7E)
inline constexpr double kSizeMin = 10.0;       // width and height, map units
inline constexpr double kSizeMax = 4096.0;
inline constexpr double kCoordinateMax = 8192.0;  // |x|, |y| of every point and half extent
inline constexpr double kAxisLengthMin = 1e-3;    // a box's axis: finite, not shorter
inline constexpr std::size_t kBoxesMax = 1024;
inline constexpr std::size_t kSegmentsMax = 1024;
inline constexpr std::size_t kSpawnsMax = 64;
inline constexpr std::size_t kPucksMax = 16;
inline constexpr std::uint32_t kTeamSizeMax = 16;
inline constexpr std::uint32_t kMatchSecondsMax = 24 * 3600;
inline constexpr std::uint32_t kScoreLimitMax = 1000;
inline constexpr double kRadiusMin = 0.1, kRadiusMax = 50.0;  // player_radius, puck_radius
inline constexpr double kMassMin = 0.01, kMassMax = 1000.0;   // player_mass, puck_mass
inline constexpr double kAccelerationMax = 10000.0;           // units/s²
inline constexpr double kSpeedMin = 0.1, kSpeedMax = 1000.0;  // player_max_speed, units/s
inline constexpr double kKickSpeedMax = 2000.0;  // units/s, from 0 (the corpus kicks at 1500)
inline constexpr double kKickReachMax = 50.0;    // units, from 0
inline constexpr std::uint32_t kKickCooldownTicksMax = 3600;
inline constexpr double kDragMax =
    60.0;  // per second, from 0 (beyond the tick rate it reverses motion)
}  // namespace limits

// Empty when the map is playable; otherwise "field: reason" for the first
// problem found (e.g. "spawns: team right has 1 spawn for a team size of 4",
// "tuning.kick_speed: 1e+50 is outside [0, 2000] units/s"). Besides the
// limits, a map is checked as a game: every spawn and puck on the field,
// clear of every wall and of each other, and from every puck spawn a puck
// can reach both goals (src/goal_reach.cpp says how that is decided).
std::string validate(const Map& map);

}  // namespace carom::game
