#pragma once
// The sweep's broadphase: which disks and statics the path of a disk may
// meet within a tick.
//
// Every disk has a reach: a box around its path, with room for about one and
// a half more ticks of travel. Disks whose reaches overlap are neighbours.
// While a disk's path (however often it changes) stays inside its reach,
// only its neighbours, its nearby statics and the escapees (disks whose path
// left their reach) can touch it, so finding what it may hit is a walk over
// a short list. Reaches are kept across ticks and rebuilt when too many
// disks have escaped them. Which disks are neighbours only affects speed:
// every pair that can touch is always offered.
//
// The sweep decides which candidates it schedules, with a `meet` test of its
// own: the broadphase first keeps those that pass in a branch-free pass
// (which ones do is a coin flip to a branch predictor), then offers them.
#include <cstdint>
#include <span>
#include <vector>

#include "anchor_grid.hpp"
#include "hash_grid.hpp"
#include "lanes.hpp"
#include "static_index.hpp"
#include "sweep_body.hpp"

namespace carom::physics::detail {

// What the broadphase keeps between steps, in the world's scratch memory.
struct BroadphaseState {
    std::vector<Aabb> reach;                   // per disk: where its paths may go
    std::vector<Aabb> swept;                   // per disk: swept bounds as of its last path change
    std::vector<std::uint8_t> present;         // per disk: alive when the reaches were built
    std::vector<std::uint8_t> escaped;         // per disk: its path left its reach this tick
    std::vector<std::uint8_t> near_escapee;    // per disk: an escapee's path came near its reach
    std::vector<AnchorGrid::Pair> pairs;       // neighbours, each pair once
    std::vector<AnchorGrid::Pair> candidates;  // pairs that passed a filter, for a second look
    std::vector<std::uint32_t> nearby;         // disks near one disk, for a second look
    std::vector<std::uint32_t> neighbour_start;  // disk i's neighbours: [start[i], start[i+1])
    std::vector<std::uint32_t> neighbours;
    std::vector<std::uint32_t> fill;
    std::vector<std::uint32_t> static_start;  // disk i's statics: [start[i], start[i+1])
    std::vector<std::uint32_t> static_neighbours;
    AnchorGrid cells;  // over the reaches
    HashGrid escapee_grid;
    // The neighbourhood (reach, cells, pairs, neighbour lists) is kept from
    // tick to tick while it still fits; creating or destroying shapes, or
    // copying the world (the grid points into this very state), drops it.
    bool neighbourhood_valid = false;
    double cell_size = 1.0;
};

// One tick's use of the state, over the world's grid of statics
// (`static_boxes` are the bounds it was built from).
class Broadphase {
  public:
    Broadphase(BroadphaseState& state, const StaticIndex& static_grid,
               std::span<const Aabb> static_boxes)
        : s_(state), static_grid_(static_grid), static_boxes_(static_boxes) {}

    // Starts a tick: `bodies` are the sweep's disks, `dt` the tick. Before
    // it, swept(i) must hold the bounds of each active disk's path to the
    // end of the tick (resize_for(bodies.size()) makes room).
    void resize_for(std::size_t disk_count) { s_.swept.resize(disk_count); }
    void start(std::span<const SweepBody> bodies, double dt);

    Aabb& swept(std::uint32_t i) { return s_.swept[i]; }

    // The candidates before any disk has moved. on_pair(i, j) for each pair
    // of neighbours, neither escaped, whose paths overlap and pass
    // meet_pair(i, j); then for each active disk i, on_static(i, s) for
    // every static its path may touch, and, for an escapee,
    // on_disk(i, j) for every disk whose path it may meet, with meet(i, j)
    // as for candidates().
    template <class MeetPair, class OnPair, class Meet, class OnDisk, class OnStatic>
    void first_candidates(std::span<const SweepBody> bodies, MeetPair&& meet_pair, OnPair&& on_pair,
                          Meet&& meet, OnDisk&& on_disk, OnStatic&& on_static);

    // Disk i's path changed to `box`: on_disk(j) for every disk j but
    // `skip` whose path overlaps `box` and passes meet(j), on_static(s) for
    // every static whose bounds may overlap `box`.
    template <class Meet, class OnDisk, class OnStatic>
    void candidates(std::uint32_t i, const Aabb& box, std::uint32_t skip, Meet&& meet,
                    OnDisk&& on_disk, OnStatic&& on_static);

  private:
    void rebuild(std::span<const SweepBody> bodies, double dt);
    void build_neighbour_lists(std::size_t disk_count);
    void build_static_lists(std::size_t disk_count);

    // Bitwise, like overlaps(): whether a path left its reach is hard to predict.
    static bool contains(const Aabb& outer, const Aabb& inner) {
        return (outer.min.x <= inner.min.x) & (outer.min.y <= inner.min.y) &
               (inner.max.x <= outer.max.x) & (inner.max.y <= outer.max.y);
    }

    template <class Meet, class OnDisk>
    void offer_nearby(const Aabb& box, std::span<const std::uint32_t> others, std::uint8_t escaped,
                      std::uint32_t skip, Meet&& meet, OnDisk&& on_disk);
    template <class Meet, class OnDisk>
    void offer_near_reaches(const Aabb& box, std::uint32_t skip, Meet&& meet, OnDisk&& on_disk);
    template <class Meet, class OnDisk>
    void offer_near_escapees(const Aabb& box, std::uint32_t skip, Meet&& meet, OnDisk&& on_disk);

    BroadphaseState& s_;
    const StaticIndex& static_grid_;
    std::span<const Aabb> static_boxes_;
    std::uint32_t escapees_ = 0;
};

template <class MeetPair, class OnPair, class Meet, class OnDisk, class OnStatic>
void Broadphase::first_candidates(std::span<const SweepBody> bodies, MeetPair&& meet_pair,
                                  OnPair&& on_pair, Meet&& meet, OnDisk&& on_disk,
                                  OnStatic&& on_static) {
    s_.candidates.resize(s_.pairs.size());
    std::size_t kept = 0;
    for (const auto& [i, j] : s_.pairs) {
        s_.candidates[kept] = {i, j};
        // Bitwise on named results: the tests all run, with no branch between.
        const bool paths_overlap = overlaps_by_lanes(s_.swept[i], s_.swept[j]);
        const bool may_meet = meet_pair(i, j);
        const bool neither_escaped = (s_.escaped[i] | s_.escaped[j]) == 0;
        const bool keep = neither_escaped & paths_overlap & may_meet;
        kept += keep ? 1 : 0;
    }
    for (std::size_t k = 0; k < kept; ++k)
        on_pair(s_.candidates[k].first, s_.candidates[k].second);
    for (std::uint32_t i = 0; i < bodies.size(); ++i) {
        if (!bodies[i].active) continue;
        const Aabb& box = s_.swept[i];
        if (!s_.escaped[i]) {
            for (std::uint32_t k = s_.static_start[i]; k < s_.static_start[i + 1]; ++k) {
                if (overlaps(box, static_boxes_[s_.static_neighbours[k]]))
                    on_static(i, s_.static_neighbours[k]);
            }
            continue;
        }
        // Each escapee pairs with the escapees before it, then joins them.
        const auto meet_i = [&](std::uint32_t j) { return meet(i, j); };
        const auto on_disk_i = [&](std::uint32_t j) { on_disk(i, j); };
        offer_near_reaches(box, UINT32_MAX, meet_i, on_disk_i);
        offer_near_escapees(box, UINT32_MAX, meet_i, on_disk_i);
        s_.escapee_grid.insert(i, box);
        static_grid_.query(box, [&](std::uint32_t s) { on_static(i, s); });
    }
}

template <class Meet, class OnDisk, class OnStatic>
void Broadphase::candidates(std::uint32_t i, const Aabb& box, std::uint32_t skip, Meet&& meet,
                            OnDisk&& on_disk, OnStatic&& on_static) {
    s_.swept[i] = box;
    if (!s_.escaped[i] && contains(s_.reach[i], box)) {
        const std::span<const std::uint32_t> neighbours(s_.neighbours);
        offer_nearby(box,
                     neighbours.subspan(s_.neighbour_start[i],
                                        s_.neighbour_start[i + 1] - s_.neighbour_start[i]),
                     0, skip, meet, on_disk);
        for (std::uint32_t k = s_.static_start[i]; k < s_.static_start[i + 1]; ++k)
            on_static(s_.static_neighbours[k]);
    } else {
        if (s_.escaped[i]) {
            s_.escapee_grid.remove(i);
        } else {
            s_.escaped[i] = 1;
            ++escapees_;
        }
        offer_near_reaches(box, skip, meet, on_disk);
        static_grid_.query(box, on_static);
    }
    // An escapee near a path inside its reach is near the reach, so was
    // seen by the reach grid (and marked) when it entered its own grid.
    if (escapees_ > 0 && (s_.escaped[i] || s_.near_escapee[i]))
        offer_near_escapees(box, skip, meet, on_disk);
    if (s_.escaped[i]) s_.escapee_grid.insert(i, box);
}

// Offers those of `others` whose paths may meet `box`: not `skip`, escaped
// or not as `escaped` says (each side of the neighbourhood is asked
// separately), swept bounds overlapping, meet(j). A branch-free pass keeps
// them in s_.nearby (which `others` may be) before any is offered.
template <class Meet, class OnDisk>
void Broadphase::offer_nearby(const Aabb& box, std::span<const std::uint32_t> others,
                              std::uint8_t escaped, std::uint32_t skip, Meet&& meet,
                              OnDisk&& on_disk) {
    std::uint32_t* kept = s_.nearby.data();
    std::size_t count = 0;
    for (const std::uint32_t j : others) {
        kept[count] = j;
        const bool paths_overlap = overlaps_by_lanes(box, s_.swept[j]);
        const bool may_meet = meet(j);
        const bool side = s_.escaped[j] == escaped;
        const bool keep = side & (j != skip) & paths_overlap & may_meet;
        count += keep ? 1 : 0;
    }
    for (std::size_t k = 0; k < count; ++k)
        on_disk(kept[k]);
}

// The disks that have not escaped their reaches, found by the reach grid (a
// path outside its own reach may meet any of them). Every disk found is
// marked as near an escapee: only escaped disks come here, each before it
// (re)enters the escapee grid.
template <class Meet, class OnDisk>
void Broadphase::offer_near_reaches(const Aabb& box, std::uint32_t skip, Meet&& meet,
                                    OnDisk&& on_disk) {
    std::size_t found = 0;
    s_.cells.query(box, [&](std::uint32_t j) {
        s_.nearby[found++] = j;
        s_.near_escapee[j] = 1;
    });
    offer_nearby(box, {s_.nearby.data(), found}, 0, skip, meet, on_disk);
}

template <class Meet, class OnDisk>
void Broadphase::offer_near_escapees(const Aabb& box, std::uint32_t skip, Meet&& meet,
                                     OnDisk&& on_disk) {
    std::size_t found = 0;
    s_.escapee_grid.query(box, [&](std::uint32_t j) { s_.nearby[found++] = j; });
    offer_nearby(box, {s_.nearby.data(), found}, 1, skip, meet, on_disk);
}

}  // namespace carom::physics::detail
