#pragma once
// The world's storage, shared by the files that implement World.
#include <vector>

#include "cell_grid.hpp"
#include "hash_grid.hpp"
#include "carom/physics/world.hpp"

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
};

// Per-disk bookkeeping of one sweep: each disk has its own clock `t`.
struct SweepBody {
    Vec2 position;        // at time t
    Vec2 velocity;        // the velocity it moves with (zero once parked)
    double t = 0.0;
    std::uint32_t version = 0;  // bumped whenever its path changes; stales old events
    std::uint32_t impacts = 0;
    bool active = false;
    bool parked = false;
};

enum class EventKind : std::uint8_t { disk_disk, disk_static };

struct SweepEvent {
    double t;
    std::uint32_t a;  // disk; the lower index for disk pairs
    std::uint32_t b;  // disk or static index
    std::uint32_t version_a;
    std::uint32_t version_b;
    EventKind kind;
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
    std::vector<SweepEvent> events;
    std::vector<OverlapContact> overlaps;
    std::vector<Aabb> boxes;            // per disk: swept bounds, then final bounds
    std::vector<std::uint8_t> present;  // per disk: alive
    std::vector<std::uint8_t> moved;    // per disk: its box left `cells` for `moved_grid`
    CellGrid cells;
    HashGrid moved_grid;
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
    detail::HashGrid static_grid;
    bool static_grid_dirty = true;
    detail::Scratch scratch;

    void rebuild_static_grid();
    template <class Visit>
    void for_each_static_near(const Aabb& box, Visit&& visit);
};

template <class Visit>
void World::Impl::for_each_static_near(const Aabb& box, Visit&& visit) {
    static_grid.query(box, [&](std::uint32_t s) { visit(s); });
}

}  // namespace carom::physics
