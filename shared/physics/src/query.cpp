// Queries against the current positions. Disks are scanned in index order
// (games query a handful of disks); statics go through their grid once the
// step has built it, and are scanned otherwise. Nothing here writes, so
// concurrent queries on one world are safe.
#include <algorithm>

#include "carom/physics/proximity.hpp"
#include "carom/physics/toi.hpp"
#include "static_shape.hpp"
#include "world_impl.hpp"

namespace carom::physics {
namespace {

Aabb swept_query_bounds(Vec2 center, double radius, Vec2 translation) {
    const Vec2 end = center + translation;
    return {{std::min(center.x, end.x) - radius, std::min(center.y, end.y) - radius},
            {std::max(center.x, end.x) + radius, std::max(center.y, end.y) + radius}};
}

template <class Visit>
void for_each_static(const World::Impl& w, const Aabb& box, Visit&& visit) {
    if (!w.static_grid_dirty) {
        w.static_grid.query(box, visit);
        return;
    }
    for (std::uint32_t s = 0; s < w.statics.size(); ++s) {
        if (w.statics[s].alive && overlaps(w.statics[s].bounds, box)) visit(s);
    }
}

}  // namespace

std::optional<QueryHit> World::sweep_disk(Vec2 center, double radius, Vec2 translation,
                                          std::uint32_t mask) const {
    if (!is_finite(center) || !is_finite(translation) || !(radius >= 0.0)) return std::nullopt;
    std::optional<QueryHit> best;
    auto consider = [&](ShapeRef shape, const std::optional<Impact>& hit) {
        if (!hit) return;
        if (best && (hit->t > best->fraction || (hit->t == best->fraction && best->shape < shape)))
            return;
        const Vec2 at = center + translation * hit->t;
        best = QueryHit{shape, hit->t, at - hit->normal * radius, hit->normal};
    };
    for (std::uint32_t i = 0; i < impl_->disks.size(); ++i) {
        const auto& slot = impl_->disks[i];
        if (!slot.alive || (slot.state.filter.layer & mask) == 0) continue;
        consider({ShapeKind::disk, i, slot.generation},
                 toi_disk_disk(center, radius, translation, slot.state.position, slot.state.radius,
                               1.0));
    }
    for_each_static(*impl_, swept_query_bounds(center, radius, translation), [&](std::uint32_t s) {
        const auto& slot = impl_->statics[s];
        const StaticState& st = slot.state;
        if ((st.common.filter.layer & mask) == 0) return;
        consider({st.kind, s, slot.generation},
                 detail::toi_disk_static(center, radius, translation, st, 1.0, slot.seam_corners));
    });
    return best;
}

std::optional<QueryHit> World::raycast(Vec2 origin, Vec2 translation, std::uint32_t mask) const {
    return sweep_disk(origin, 0.0, translation, mask);
}

std::vector<ShapeRef> World::overlap_disk(Vec2 center, double radius, std::uint32_t mask) const {
    std::vector<ShapeRef> found;
    if (!is_finite(center) || !(radius >= 0.0)) return found;
    for (std::uint32_t i = 0; i < impl_->disks.size(); ++i) {
        const auto& slot = impl_->disks[i];
        if (!slot.alive || (slot.state.filter.layer & mask) == 0) continue;
        if (proximity_disk_disk(center, radius, slot.state.position, slot.state.radius)
                .separation <= 0.0)
            found.push_back({ShapeKind::disk, i, slot.generation});
    }
    for_each_static(*impl_, swept_query_bounds(center, radius, {}), [&](std::uint32_t s) {
        const auto& slot = impl_->statics[s];
        const StaticState& st = slot.state;
        if ((st.common.filter.layer & mask) == 0) return;
        const Proximity p = detail::proximity_disk_static(center, radius, st);
        if (p.separation <= 0.0) found.push_back({st.kind, s, slot.generation});
    });
    std::sort(found.begin(), found.end());
    return found;
}

std::vector<ShapeRef> World::overlap_point(Vec2 point, std::uint32_t mask) const {
    return overlap_disk(point, 0.0, mask);
}

}  // namespace carom::physics
