// Overlap resolution: push overlapping shapes apart, deepest first.
//
// Each pass collects every overlap deeper than the tolerance, sorts them by
// depth (ties by indices, a total order) and pushes each pair apart by its
// current depth, re-measured at that moment because earlier pushes may have
// changed it. Resolving the deepest first is what lets a disk pressed into a
// seam between collinear segments or abutting boxes leave along the face
// normal rather than catching on the corner.
#include <algorithm>

#include "carom/physics/proximity.hpp"
#include "static_shape.hpp"
#include "world_impl.hpp"

namespace carom::physics::detail {
namespace {

bool deeper_first(const OverlapContact& x, const OverlapContact& y) {
    if (x.depth != y.depth) return x.depth > y.depth;
    if (x.a != y.a) return x.a < y.a;
    if (x.kind != y.kind) return x.kind < y.kind;
    return x.b < y.b;
}

Aabb disk_bounds(const DiskState& d) {
    return {{d.position.x - d.radius, d.position.y - d.radius},
            {d.position.x + d.radius, d.position.y + d.radius}};
}

Proximity measure_static(const DiskState& d, const StaticState& s) {
    return proximity_disk_static(d.position, d.radius, s);
}

class OverlapSolver {
  public:
    explicit OverlapSolver(World::Impl& world)
        : w_(world),
          overlaps_(world.scratch.overlaps),
          boxes_(world.scratch.overlap_boxes),
          present_(world.scratch.overlap_present),
          cells_(world.scratch.overlap_cells),
          pairs_(world.scratch.overlap_pairs) {}

    void run() {
        for (std::uint32_t pass = 0; pass < w_.def.overlap_iterations; ++pass) {
            collect();
            if (overlaps_.empty()) return;
            ++w_.stats.overlap_passes;
            std::sort(overlaps_.begin(), overlaps_.end(), deeper_first);
            for (const OverlapContact& c : overlaps_)
                push_apart(c);
        }
    }

  private:
    bool too_deep(double separation) const { return separation < -w_.def.overlap_tolerance; }

    void collect() {
        overlaps_.clear();
        const std::size_t n = w_.disks.size();
        boxes_.resize(n);
        present_.assign(n, 0u);
        std::size_t active = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            const DiskSlot& slot = w_.disks[i];
            if (!slot.alive) continue;
            present_[i] = 1;
            boxes_[i] = disk_bounds(slot.state);
            ++active;
        }
        if (active == 0) return;
        cells_.build(boxes_, present_);
        cells_.find_pairs(pairs_);
        for (const auto& [i, j] : pairs_) {
            const DiskState& a = w_.disks[i].state;
            const DiskState& b = w_.disks[j].state;
            if (!collides(a.filter, b.filter)) continue;
            if (a.inverse_mass == 0.0 && b.inverse_mass == 0.0) continue;
            const Proximity p = proximity_disk_disk(a.position, a.radius, b.position, b.radius);
            if (too_deep(p.separation))
                overlaps_.push_back({-p.separation, i, j, EventKind::disk_disk});
        }
        for (std::uint32_t i = 0; i < n; ++i) {
            if (!present_[i]) continue;
            const DiskState& d = w_.disks[i].state;
            w_.for_each_static_near(boxes_[i], [&](std::uint32_t s) {
                const StaticState& st = w_.statics[s].state;
                if (!collides(d.filter, st.common.filter)) return;
                const Proximity p = measure_static(d, st);
                if (too_deep(p.separation))
                    overlaps_.push_back({-p.separation, i, s, EventKind::disk_static});
            });
        }
    }

    void push_apart(const OverlapContact& c) {
        DiskState& a = w_.disks[c.a].state;
        if (c.kind == EventKind::disk_static) {
            const Proximity p = measure_static(a, w_.statics[c.b].state);
            if (!too_deep(p.separation)) return;
            a.position += p.normal * -p.separation;
            ++w_.stats.overlaps_resolved;
            return;
        }
        DiskState& b = w_.disks[c.b].state;
        const Proximity p = proximity_disk_disk(a.position, a.radius, b.position, b.radius);
        if (!too_deep(p.separation)) return;
        const double inv_sum = a.inverse_mass + b.inverse_mass;
        const double depth = -p.separation;
        a.position += p.normal * (depth * a.inverse_mass / inv_sum);
        b.position -= p.normal * (depth * b.inverse_mass / inv_sum);
        ++w_.stats.overlaps_resolved;
    }

    World::Impl& w_;
    std::vector<OverlapContact>& overlaps_;
    std::vector<Aabb>& boxes_;
    std::vector<std::uint8_t>& present_;
    AnchorGrid& cells_;
    std::vector<AnchorGrid::Pair>& pairs_;
};

}  // namespace

void resolve_overlaps(World::Impl& world) {
    OverlapSolver(world).run();
}

}  // namespace carom::physics::detail
