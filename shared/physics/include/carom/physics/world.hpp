#pragma once
// The physics world: dynamic disks against disks and static boxes and segments.
//
// step() advances one fixed tick in two phases:
//  1. Sweep. Every disk moves along its velocity; impacts are found by time of
//     impact and resolved earliest first (ties by index), each disk carrying
//     its own clock, so nothing tunnels whatever the speed. A disk in more
//     than max_impacts_per_disk impacts in one tick is parked: it stays where
//     it is for the rest of the tick and acts as an immovable obstacle; its
//     velocity is kept for the next tick. If the whole tick exceeds its impact
//     budget, every disk stops at the time of the last impact resolved.
//  2. Overlap resolution. Overlaps deeper than overlap_tolerance (from
//     creation, teleports or parking) are pushed apart, deepest first,
//     repeated up to overlap_iterations passes; disks share the push in
//     inverse-mass proportion, static shapes never move.
// All of it is deterministic: a pure function of the world and the tick.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "carom/physics/contact.hpp"
#include "carom/physics/defs.hpp"
#include "carom/physics/ids.hpp"

namespace carom::physics {

struct DiskState {
    Vec2 position;
    Vec2 velocity;
    double radius;
    double inverse_mass;  // 0 for kInfiniteMass
    Material material;
    Filter filter;
    std::uint64_t user_data;
};

struct StaticState {
    ShapeKind kind;   // box, segment, arc or plane
    Box box;          // valid when kind == box
    Segment segment;  // valid when kind == segment
    StaticDef common;
    Arc arc{};          // valid when kind == arc
    Plane plane{};      // valid when kind == plane
    double bias = 0.0;  // segments and arcs: 0, or one-sided (defs.hpp)
};

// One value of the state hash: `bits` is what the hash takes in (a
// double's bit pattern when `real`).
struct HashedValue {
    std::string entity;  // "world", "disk 3", "static 5", "free statics"
    std::string field;   // "tick", "position.x", "box.axis.y", ...
    std::uint64_t bits = 0;
    bool real = false;
};

struct QueryHit {
    ShapeRef shape;
    double fraction;  // of the translation, in [0, 1]
    Vec2 point;       // contact point on the shape that was hit
    Vec2 normal;      // unit, from that shape towards the query
};

class World {
  public:
    // Throws std::invalid_argument with the reason when def is invalid.
    explicit World(const WorldDef& def = {});
    ~World();
    World(const World&);
    World& operator=(const World&);
    World(World&&) noexcept;
    World& operator=(World&&) noexcept;

    // Creation refuses invalid input (NaN, infinite position, radius <= 0,
    // negative half extent, zero-length segment...) and values outside the
    // domain where the sweep is exact (domain.hpp: coordinates, radii,
    // speeds) with std::invalid_argument naming the field, the value and the
    // range, so the step never meets them. The step keeps every disk inside
    // the domain: a disk the impacts would make faster than its
    // domain::max_speed is slowed to it, one leaving the coordinate range
    // stops at its edge.
    BodyId create_disk(const DiskDef& def);
    StaticId create_box(const BoxDef& def);
    StaticId create_segment(const SegmentDef& def);
    StaticId create_arc(const ArcDef& def);
    StaticId create_plane(const PlaneDef& def);
    // Destroying a stale handle throws std::invalid_argument.
    void destroy(BodyId id);
    void destroy(StaticId id);

    bool valid(BodyId id) const;
    bool valid(StaticId id) const;
    // Contract: the handle is valid (checked; std::invalid_argument otherwise).
    const DiskState& disk(BodyId id) const;
    const StaticState& static_shape(StaticId id) const;

    // Setters validate like creation does (a velocity against the disk's
    // domain::max_speed at this world's tick).
    void set_position(BodyId id, Vec2 position);
    void set_velocity(BodyId id, Vec2 velocity);
    void apply_impulse(BodyId id, Vec2 impulse);

    void set_filter(BodyId id, Filter filter);
    // For restoring a saved state: the tick counter is part of state_hash().
    void set_tick(std::uint64_t tick);

    void step();

    // Impacts of the last step, in resolution order.
    std::span<const Contact> contacts() const;
    // Counters of the last step, for tests and diagnostics.
    struct StepStats {
        std::uint32_t impacts = 0;
        std::uint32_t parked_disks = 0;
        bool tick_budget_exhausted = false;
        std::uint32_t overlap_passes = 0;
        std::uint32_t overlaps_resolved = 0;
    };
    const StepStats& last_step_stats() const;

    std::uint64_t tick() const;
    const WorldDef& def() const;
    // Live disks in index order (the order every loop of the step uses).
    std::vector<BodyId> disks() const;
    std::vector<StaticId> statics() const;

    // Queries. `mask` selects the layers that can be hit. Ties between equally
    // near hits go to the lower shape (disks before statics, then by index).
    std::optional<QueryHit> raycast(Vec2 origin, Vec2 translation,
                                    std::uint32_t mask = 0xFFFFFFFFu) const;
    std::optional<QueryHit> sweep_disk(Vec2 center, double radius, Vec2 translation,
                                       std::uint32_t mask = 0xFFFFFFFFu) const;
    // Shapes overlapping the disk (touching counts), sorted as ShapeRef sorts.
    std::vector<ShapeRef> overlap_disk(Vec2 center, double radius,
                                       std::uint32_t mask = 0xFFFFFFFFu) const;
    std::vector<ShapeRef> overlap_point(Vec2 point, std::uint32_t mask = 0xFFFFFFFFu) const;

    // Hash of every bit that influences the future: settings, tick, every
    // slot (live or free, with its generation) and every shape's fields.
    std::uint64_t state_hash() const;
    // The same values in two parts: the hash of all but the static shapes,
    // and a digest of the static shapes alone. The digest is computed once
    // and kept until a static shape is created or destroyed, so a caller
    // that folds the two (game::Match does) hashes a tick in the time its
    // disks take, however many walls the map has.
    std::uint64_t moving_hash() const;
    std::uint64_t statics_digest() const;
    // Every value state_hash() takes in, in its order, with its name: what a
    // field-level diff needs to say where two worlds differ.
    std::vector<HashedValue> hashed_values() const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace carom::physics
