#pragma once
// Seams: where another static shape continues a face in a straight line
// (collinear segments end to end, abutting boxes), the corner between them
// is not a corner of the world, and a disk sliding across must not meet a
// corner circle there. Rounding would otherwise let a disk sunk into the
// floor by a hair catch such a circle and be kicked off the floor.
#include <cstdint>
#include <span>
#include <vector>

#include "world_impl.hpp"

namespace carom::physics::detail {

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

// The edges of every static, indexed by the line they lie on (direction,
// then offset), so that finding the edges that run on from a corner costs a
// search, not a look at every static whose bounds cover the corner: a map of
// many overlapping boxes builds in O(n log n), not O(n^2).
class SeamIndex {
  public:
    explicit SeamIndex(std::span<const StaticSlot> statics);
    // Bit k is set when corner k of statics[index] is a seam: for a segment,
    // bit 0 is end a and bit 1 end b; for a box, corners in its own frame in
    // the order (+x,+y), (-x,+y), (-x,-y), (+x,-y), as toi.hpp numbers them.
    std::uint8_t seam_corners(std::uint32_t index) const;

  private:
    struct LineEdge {
        double offset;  // cross(direction, a): where the line lies
        Edge edge;
        std::uint32_t owner;
    };
    // Where an edge lies along its cluster's direction (`lo` <= `hi`), with
    // the largest `hi` of it and the entries before it.
    struct Extent {
        double lo, hi_so_far;
        std::uint32_t edge;  // index into Cluster::edges
    };
    // Edges of a cluster whose offsets chain within `run_gap_`: one line,
    // give or take rounding. Many collinear edges (a wall of abutting boxes)
    // share a run; their extents, sorted, find the few that reach a corner.
    struct Run {
        double offset_min, offset_max;
        std::vector<Extent> extents;  // by lo
    };
    // Edges whose directions are within the parallel tolerance of their
    // neighbours' (a chain), sorted by offset.
    struct Cluster {
        double key_min, key_max;  // direction keys of its edges
        Vec2 direction;           // of its first edge: extents are measured along it
        std::vector<LineEdge> edges;
        std::vector<Run> runs;  // by offset
    };
    bool runs_on(std::uint32_t index, Vec2 corner, Vec2 leaving) const;

    std::span<const StaticSlot> statics_;
    std::vector<Cluster> clusters_;  // by key_min
    double offset_slack_ = 0.0;      // how far offsets of one line can disagree
    double run_gap_ = 0.0;           // the widest offset window a corner searches
    double max_length_ = 0.0;        // of any edge, plus the largest coordinate
};

}  // namespace carom::physics::detail
