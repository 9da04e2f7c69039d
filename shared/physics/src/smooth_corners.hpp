#pragma once
// Seams: where another static shape continues a face in a straight line
// (collinear segments end to end, abutting boxes), the corner between them
// is not a corner of the world, and a disk sliding across must not meet a
// corner circle there. Rounding would otherwise let a disk sunk into the
// floor by a hair catch such a circle and be kicked off the floor.
#include <cstdint>
#include <span>

#include "world_impl.hpp"

namespace carom::physics::detail {

// Bit k is set when corner k of statics[index] is a seam: for a segment,
// bit 0 is end a and bit 1 end b; for a box, corners in its own frame in
// the order (+x,+y), (-x,+y), (-x,-y), (+x,-y), as toi.hpp numbers them.
// `near(box, visit)` must visit every static whose bounds overlap `box`.
template <class Near>
std::uint8_t seam_corners(std::span<const StaticSlot> statics, std::uint32_t index, Near&& near);

struct Edge {
    Vec2 a;
    Vec2 b;
};

// The corners of a static shape and, for each, the directions of the edges
// that leave it (one for a segment end, two for a box corner).
struct CornerEdges {
    Vec2 corner;
    Vec2 leaving[2];
    int count;
};
int corners_of(const StaticState& s, CornerEdges out[4]);
int edges_of(const StaticState& s, Edge out[4]);

// Whether `edge` runs on from `corner` in direction -`leaving` (a straight
// continuation of the edge that leaves the corner along `leaving`).
bool continues(const Edge& edge, Vec2 corner, Vec2 leaving);

template <class Near>
std::uint8_t seam_corners(std::span<const StaticSlot> statics, std::uint32_t index, Near&& near) {
    CornerEdges corners[4];
    const int count = corners_of(statics[index].state, corners);
    std::uint8_t mask = 0;
    for (int k = 0; k < count; ++k) {
        const Vec2 c = corners[k].corner;
        const double pad = 1e-9 * (1.0 + std::abs(c.x) + std::abs(c.y));
        bool seam = false;
        near(Aabb{{c.x - pad, c.y - pad}, {c.x + pad, c.y + pad}}, [&](std::uint32_t other) {
            if (other == index || seam) return;
            Edge edges[4];
            const int n = edges_of(statics[other].state, edges);
            for (int e = 0; e < n && !seam; ++e) {
                for (int l = 0; l < corners[k].count && !seam; ++l) {
                    seam = continues(edges[e], c, corners[k].leaving[l]);
                }
            }
        });
        if (seam) mask = static_cast<std::uint8_t>(mask | (1u << k));
    }
    return mask;
}

}  // namespace carom::physics::detail
