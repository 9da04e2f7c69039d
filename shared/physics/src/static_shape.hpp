#pragma once
// A disk against any static shape: the proximity and time of impact of its
// kind, for the sweep, the overlap solver and the queries alike.
#include <optional>

#include "carom/physics/proximity.hpp"
#include "carom/physics/toi.hpp"
#include "carom/physics/world.hpp"

namespace carom::physics::detail {

inline Proximity proximity_disk_static(Vec2 c, double r, const StaticState& s) {
    switch (s.kind) {
        case ShapeKind::box:
            return proximity_disk_box(c, r, s.box);
        case ShapeKind::arc:
            return proximity_disk_arc(c, r, s.arc, s.bias);
        case ShapeKind::plane:
            return proximity_disk_plane(c, r, s.plane);
        default:
            return proximity_disk_segment(c, r, s.segment, s.bias);
    }
}

inline std::optional<Impact> toi_disk_static(Vec2 p, double r, Vec2 v, const StaticState& s,
                                             double t_max, std::uint8_t seam_corners) {
    switch (s.kind) {
        case ShapeKind::box:
            return toi_disk_box(p, r, v, s.box, t_max, seam_corners);
        case ShapeKind::arc:
            return toi_disk_arc(p, r, v, s.arc, t_max, seam_corners, s.bias);
        case ShapeKind::plane:
            return toi_disk_plane(p, r, v, s.plane, t_max);
        default:
            return toi_disk_segment(p, r, v, s.segment, t_max, seam_corners, s.bias);
    }
}

}  // namespace carom::physics::detail
