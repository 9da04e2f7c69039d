#pragma once
// What a caller fills in to create shapes and worlds; every field has a default.
#include <cstdint>
#include <limits>
#include <string>

#include "carom/physics/geometry.hpp"
#include "carom/result.hpp"

namespace carom::physics {

inline constexpr double kInfiniteMass = std::numeric_limits<double>::infinity();

// Two shapes collide when each one's layer is in the other's mask.
struct Filter {
    std::uint32_t layer = 1;
    std::uint32_t mask = 0xFFFFFFFFu;
};

constexpr bool collides(const Filter& a, const Filter& b) {
    return (a.layer & b.mask) != 0 && (b.layer & a.mask) != 0;
}

// Restitution and friction of a contact are the products of the two
// shapes' values, so one perfectly elastic wall (1) keeps each disk's own bounce.
struct Material {
    double restitution = 1.0;  // in [0, 1]
    double friction = 0.0;     // Coulomb coefficient, >= 0
};

// Units: world units (u) and seconds; World refuses values outside its
// domain (domain.hpp).
struct DiskDef {
    Vec2 position;                // u, of the centre; |x|, |y| <= domain::kMaxCoordinate
    Vec2 velocity;                // u/s; |velocity| <= domain::max_speed(radius, tick_seconds)
    double radius = 1.0;          // u, in [domain::kMinRadius, domain::kMaxRadius]
    double mass = 1.0;            // any unit, > 0, or kInfiniteMass for a disk nothing can push
    Material material;            // dimensionless
    Filter filter;                // bit masks
    std::uint64_t user_data = 0;  // the caller's, never read by the physics
};

// How a disk leaves a static shape it hits: `bounce` applies restitution and
// friction; `slide` only removes the velocity into the wall.
enum class WallResponse : std::uint8_t { bounce, slide };

struct StaticDef {
    Material material;
    WallResponse response = WallResponse::bounce;
    Filter filter;
    std::uint64_t user_data = 0;
};

struct BoxDef {
    Box box;  // axis must be a non-zero vector; it is normalised at creation
    StaticDef common;
};

// bias: 0 for a wall hit from both sides; otherwise the wall faces one side
// (left of a -> b when > 0, right when < 0) and |bias| is how deep behind its
// face a disk is still pushed out to the front (proximity.hpp).
struct SegmentDef {
    Segment segment;
    StaticDef common;
    double bias = 0.0;
};

// An arc runs counterclockwise from a to b: its left is its inside.
struct ArcDef {
    Arc arc;
    StaticDef common;
    double bias = 0.0;
};

struct PlaneDef {
    Plane plane;  // normal: any finite non-zero vector; it is normalised at creation
    StaticDef common;
};

struct WorldDef {
    double tick_seconds = 1.0 / 60.0;  // s, in (0, domain::kMaxTickSeconds]
    // Bounded work: a disk that takes part in more impacts than this within one
    // tick is parked where it is for the rest of the tick (see World::step).
    std::uint32_t max_impacts_per_disk = 32;
    // Upper bound on all impacts of one tick: max(1024, this * disks).
    std::uint32_t max_impacts_per_disk_average = 16;
    // Overlap resolution: passes per tick, and the depth below which an overlap is left alone.
    std::uint32_t overlap_iterations = 8;
    double overlap_tolerance = 1e-9;
};

// Each succeeds when the definition is valid; otherwise its error names the
// field, the value and the range (World's create_* throw it as invalid_argument).
Status validate(const DiskDef& def);
Status validate(const BoxDef& def);
Status validate(const SegmentDef& def);
Status validate(const ArcDef& def);
Status validate(const PlaneDef& def);
Status validate(const WorldDef& def);

}  // namespace carom::physics
