#pragma once
// A map as the game sees it: walls, goals, spawns and the tuning of the match.
// Maps are data (schemas/map.fbs, written as JSON); this is the decoded form,
// so the game itself needs nothing but the standard library.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "carom/physics/geometry.hpp"
#include "carom/result.hpp"

namespace carom::game {

using physics::Arc;
using physics::Box;
using physics::Plane;
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

// Collision groups, with HaxBall's meanings and bit numbers (a map of
// `walls` or `posts` uses them; see Map::uses_groups). Two shapes collide
// when each one's group meets the other's mask.
namespace groups {
inline constexpr std::uint32_t kBall = 1u << 0;
inline constexpr std::uint32_t kRed = 1u << 1;          // the left team's players
inline constexpr std::uint32_t kBlue = 1u << 2;         // the right team's players
inline constexpr std::uint32_t kRedKickoff = 1u << 3;   // in red's mask while blue kicks off
inline constexpr std::uint32_t kBlueKickoff = 1u << 4;  // in blue's mask while red kicks off
inline constexpr std::uint32_t kWall = 1u << 5;
inline constexpr std::uint32_t kKick = 1u << 6;
inline constexpr std::uint32_t kScore = 1u << 7;
inline constexpr std::uint32_t kC0 = 1u << 28, kC1 = 1u << 29, kC2 = 1u << 30, kC3 = 1u << 31;
inline constexpr std::uint32_t kAll = kBall | kRed | kBlue | kRedKickoff | kBlueKickoff | kWall;
}  // namespace groups

struct Collision {
    std::uint32_t group = groups::kWall;
    std::uint32_t mask = groups::kAll;
};

// A wall of the `walls` list: a segment, an arc or a half-plane, with its
// own bounce, one-sidedness (physics/defs.hpp, bias) and collision groups.
// `color` (0xRRGGBB) and `visible` are for drawing only.
struct Wall {
    enum class Shape : std::uint8_t { segment = 0, arc = 1, plane = 2 };
    Shape shape = Shape::segment;
    Vec2 a, b;          // segment and arc ends; an arc runs counterclockwise from a to b
    Vec2 center;        // arc: the circle's centre (its radius is |a - center|)
    Vec2 normal;        // plane: the free side's direction (any non-zero length)
    double offset = 0;  // plane: dot(p, normal / |normal|) = offset on its face
    double bias = 0.0;
    double restitution = 1.0;
    Collision collision;
    std::uint32_t color = 0;
    bool visible = true;
};

// A static disc (a goal post): immovable, with its own bounce and groups.
struct Post {
    Vec2 position;
    double radius = 1.0;
    double restitution = 0.5;
    Collision collision;
    std::uint32_t color = 0xFFFFFF;
};

// A movable disc that is neither a puck nor a player (HaxBall's discs with
// invMass > 0): pushed by whatever touches it, never kicked, never scoring.
// It starts at `position` with `velocity`, and returns there at each
// kick-off when the map's kickoff_resets_discs says so.
struct Disc {
    Vec2 position;
    Vec2 velocity;
    double radius = 1.0;
    double mass = 1.0;
    double restitution = 0.5;
    double drag = 0.0;  // fraction of velocity lost per second, as tuning's
    Collision collision{groups::kAll, groups::kAll};
    std::uint32_t color = 0xFFFFFF;
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
    // While the kick button is held (HaxBall's kickingAcceleration and
    // kickingDamping); a negative value means "as without it".
    double kicking_acceleration = -1.0;
    double kicking_drag = -1.0;
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
    // HaxBall's stadiums (all empty in maps of boxes and segments alone,
    // which then play exactly as before):
    std::vector<Wall> walls;
    std::vector<Post> posts;
    Collision puck_collision{groups::kBall | groups::kKick | groups::kScore, groups::kAll};
    bool kickoff_nudge = true;  // pucks get a random nudge at each kick-off
    std::vector<Disc> discs;
    bool kickoff_resets_discs = false;  // HaxBall's kickOffReset "full"

    // Whether the map uses collision groups (it has walls, posts or discs):
    // then players are in their team's group and pucks in puck_collision.
    bool uses_groups() const { return !walls.empty() || !posts.empty() || !discs.empty(); }
};

// The range of every value a map may hold (schemas/PROTOCOL.md, Maps). They
// keep the game playable and every coordinate, size and speed far inside
// the range where the physics is exact; validate() refuses anything outside
// with the field and the range, and the decoder refuses oversized lists
// before it allocates them.
namespace limits {
inline constexpr std::size_t kNameBytes = 64;  // 1..64 printable ASCII characters (0x20..0x7E)
// The largest map file read (JSON, or a HaxBall stadium), checked before it
// is parsed: a map at every limit below (1024 boxes, 1024 segments, 64
// spawns, 16 pucks) is about 400 KB of indented JSON. Longer lists are
// refused before they are decoded, so loading stays in proportion to this.
inline constexpr std::size_t kFileBytes = 4u << 20;
inline constexpr double kSizeMin = 10.0;  // width and height, map units
inline constexpr double kSizeMax = 4096.0;
inline constexpr double kCoordinateMax = 8192.0;  // |x|, |y| of every point and half extent
inline constexpr double kAxisLengthMin = 1e-3;    // a box's axis: finite, not shorter
inline constexpr std::size_t kBoxesMax = 1024;
inline constexpr std::size_t kSegmentsMax = 1024;
inline constexpr std::size_t kWallsMax = 1024;
inline constexpr std::size_t kPostsMax = 256;
inline constexpr double kArcEndSlack =
    1e-6;  // |b - center| may differ from |a - center| by this, relative
inline constexpr std::size_t kSpawnsMax = 64;
inline constexpr std::size_t kPucksMax = 16;
inline constexpr std::size_t kDiscsMax = 64;
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

// Succeeds when the map is playable; otherwise the error is "field: reason"
// for the first problem found (e.g. "spawns: team right has 1 spawn for a team size of 4",
// "tuning.kick_speed: 1e+50 is outside [0, 2000] units/s"). Besides the
// limits, a map is checked as a game: every spawn and puck on the field,
// clear of every wall and of each other, and from every puck spawn a puck
// can reach both goals (src/goal_reach.cpp says how that is decided).
Status validate(const Map& map);

// Whether a shape of `shape`'s collision meets a disk of (group, mask).
bool collides_with(const Collision& shape, std::uint32_t group, std::uint32_t mask);
// The collision of a player of `team`: its team's group, a mask of every
// group but the kick-off barriers, and its team's barrier while the other
// team kicks off.
Collision player_collision(Team team, bool other_team_kicks_off);
// The distance from p to a wall's surface (a plane's: negative behind it).
double distance_to_wall(const Wall& wall, Vec2 p);

}  // namespace carom::game
