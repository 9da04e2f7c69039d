#pragma once
// The world's storage, shared by the files that implement World.
#include <optional>
#include <vector>

#include "anchor_grid.hpp"
#include "broadphase.hpp"
#include "carom/physics/world.hpp"
#include "event_queue.hpp"
#include "static_index.hpp"
#include "sweep_body.hpp"

namespace carom::physics {

namespace detail {

struct DiskSlot {
    DiskState state{};
    std::uint32_t generation = 0;
    bool alive = false;
};

struct StaticSlot {
    StaticState state{};
    Aabb bounds{};
    std::uint32_t generation = 0;
    bool alive = false;
    std::uint8_t seam_corners = 0;  // derived from the statics; see smooth_corners.hpp
};

struct OverlapContact {
    double depth;
    std::uint32_t a;  // disk
    std::uint32_t b;  // disk (higher index) or static
    EventKind kind;
};

// Scratch memory of the solvers, kept between steps so the step does not allocate.
struct Scratch {
    std::vector<SweepBody> bodies;
    EventQueue events;
    std::vector<OverlapContact> overlaps;
    BroadphaseState broadphase;

    // The overlap solver's own grid over the disks' final bounds.
    std::vector<Aabb> overlap_boxes;
    std::vector<std::uint8_t> overlap_present;
    AnchorGrid overlap_cells;
    std::vector<AnchorGrid::Pair> overlap_pairs;
};

// Returns whether the tick may end with an overlap deeper than the
// tolerance: one deeper than half of it at the start, or a parked disk.
// Otherwise the impacts leave every pair touching at most, and the overlap
// solver, which would find nothing, is skipped.
bool run_sweep(World::Impl& world);
void resolve_overlaps(World::Impl& world);

}  // namespace detail

struct World::Impl {
    WorldDef def;
    std::uint64_t tick = 0;
    std::vector<detail::DiskSlot> disks;
    std::vector<std::uint32_t> free_disks;  // LIFO: the next index handed out is the last freed
    std::vector<detail::StaticSlot> statics;
    std::vector<std::uint32_t> free_statics;

    std::vector<Contact> contacts;
    StepStats stats;

    // Derived from `statics`; rebuilt by the step after statics change.
    // The grid refers to static_boxes, so a copied Impl must rebuild it.
    std::vector<Aabb> static_boxes;
    std::vector<std::uint8_t> static_present;
    detail::StaticIndex static_grid;
    bool static_grid_dirty = true;
    // World::statics_digest(), kept until the statics change (create or destroy).
    mutable std::optional<std::uint64_t> statics_digest;
    detail::Scratch scratch;

    void rebuild_static_grid();
    template <class Visit>
    void for_each_static_near(const Aabb& box, Visit&& visit);
};

template <class Visit>
void World::Impl::for_each_static_near(const Aabb& box, Visit&& visit) {
    static_grid.query(box, visit);
}

}  // namespace carom::physics
