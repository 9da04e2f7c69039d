#include "smooth_corners.hpp"

#include <algorithm>
#include <cmath>

namespace carom::physics::detail {
namespace {

Vec2 unit(Vec2 v) {
    return v / length(v);
}

void box_corners(const Box& b, Vec2 out[4]) {
    const Vec2 ax = b.axis * b.half_extents.x;
    const Vec2 ay = perp(b.axis) * b.half_extents.y;
    out[0] = b.center + ax + ay;
    out[1] = b.center - ax + ay;
    out[2] = b.center - ax - ay;
    out[3] = b.center + ax - ay;
}

}  // namespace

int corners_of(const StaticState& s, CornerEdges out[4]) {
    // Arcs and planes take no part in seams: an arc's end circle where a wall
    // runs on tangentially touches the path along the same normal, and a
    // plane has no corners.
    if (s.kind == ShapeKind::arc || s.kind == ShapeKind::plane) return 0;
    if (s.kind == ShapeKind::segment) {
        const Vec2 u = unit(s.segment.b - s.segment.a);
        out[0] = {s.segment.a, {u, {}}, 1};
        out[1] = {s.segment.b, {-u, {}}, 1};
        return 2;
    }
    Vec2 c[4];
    box_corners(s.box, c);
    for (int k = 0; k < 4; ++k) {
        out[k] = {c[k], {unit(c[(k + 1) % 4] - c[k]), unit(c[(k + 3) % 4] - c[k])}, 2};
    }
    return 4;
}

int edges_of(const StaticState& s, Edge out[4]) {
    if (s.kind == ShapeKind::arc || s.kind == ShapeKind::plane) return 0;
    if (s.kind == ShapeKind::segment) {
        out[0] = {s.segment.a, s.segment.b};
        return 1;
    }
    Vec2 c[4];
    box_corners(s.box, c);
    for (int k = 0; k < 4; ++k)
        out[k] = {c[k], c[(k + 1) % 4]};
    return 4;
}

bool continues(const Edge& edge, Vec2 corner, Vec2 leaving) {
    const Vec2 ab = edge.b - edge.a;
    const double len = length(ab);
    if (len == 0.0) return false;
    const double pad = 1e-9 * (1.0 + std::abs(corner.x) + std::abs(corner.y));
    // Collinear: parallel, and the corner on the edge's line.
    if (std::abs(cross(leaving, ab)) > 1e-9 * len) return false;
    if (std::abs(cross(leaving, edge.a - corner)) > pad) return false;
    // Runs on: starts at (or before) the corner and goes beyond it, away from
    // the shape whose edge leaves along `leaving`.
    const double ta = dot(edge.a - corner, -leaving);
    const double tb = dot(edge.b - corner, -leaving);
    return std::min(ta, tb) <= pad && std::max(ta, tb) > pad;
}

}  // namespace carom::physics::detail

namespace carom::physics::detail {
namespace {

// `continues` takes two directions as parallel within about 1e-9 rad; keys
// of parallel directions differ by at most that (the key's slope is <= 1).
constexpr double kKeyTolerance = 4e-9;

// A direction up to sign, and a monotone key of its angle in (-1, 1], from
// + - * / alone (this runs in world creation, part of the deterministic core).
struct Line {
    Vec2 direction;
    double key;
};
Line line_of(Vec2 d) {
    if (d.x < 0.0 || (d.x == 0.0 && d.y < 0.0)) d = -d;
    return {d, d.y / (std::abs(d.x) + std::abs(d.y))};
}

double corner_pad(Vec2 c) {
    return 1e-9 * (1.0 + std::abs(c.x) + std::abs(c.y));
}

}  // namespace

SeamIndex::SeamIndex(std::span<const StaticSlot> statics) : statics_(statics) {
    struct Keyed {
        double key;
        LineEdge edge;
    };
    std::vector<Keyed> keyed;
    double max_coord = 0.0;
    for (std::uint32_t i = 0; i < statics.size(); ++i) {
        if (!statics[i].alive) continue;
        Edge edges[4];
        const int n = edges_of(statics[i].state, edges);
        for (int e = 0; e < n; ++e) {
            const Vec2 ab = edges[e].b - edges[e].a;
            if (ab.x == 0.0 && ab.y == 0.0) continue;  // `continues` refuses it anyway
            const Line line = line_of(unit(ab));
            keyed.push_back({line.key, {cross(line.direction, edges[e].a), edges[e], i}});
            max_coord = std::max({max_coord, std::abs(edges[e].a.x), std::abs(edges[e].a.y),
                                  std::abs(edges[e].b.x), std::abs(edges[e].b.y)});
        }
    }
    // Two offsets of edges on one line, each measured along its own
    // direction, differ by at most the angle between them times the distance
    // from the origin.
    offset_slack_ = 4.0 * kKeyTolerance * (1.0 + max_coord);
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
        return a.key < b.key || (a.key == b.key && a.edge.owner < b.edge.owner);
    });
    for (std::size_t i = 0; i < keyed.size(); ++i) {
        if (clusters_.empty() || keyed[i].key - clusters_.back().key_max > kKeyTolerance)
            clusters_.push_back({keyed[i].key, keyed[i].key, Vec2{}, {}, {}});
        clusters_.back().key_max = keyed[i].key;
        clusters_.back().edges.push_back(keyed[i].edge);
    }
    run_gap_ = 2.0 * (offset_slack_ + corner_pad({max_coord, max_coord}));
    max_length_ = 4.0 * (1.0 + max_coord);
    for (Cluster& c : clusters_) {
        std::sort(c.edges.begin(), c.edges.end(), [](const LineEdge& a, const LineEdge& b) {
            return a.offset < b.offset || (a.offset == b.offset && a.owner < b.owner);
        });
        c.direction = line_of(unit(c.edges.front().edge.b - c.edges.front().edge.a)).direction;
        for (std::uint32_t i = 0; i < c.edges.size(); ++i) {
            const LineEdge& e = c.edges[i];
            if (c.runs.empty() || e.offset - c.runs.back().offset_max > run_gap_)
                c.runs.push_back({e.offset, e.offset, {}});
            c.runs.back().offset_max = e.offset;
            const double sa = dot(c.direction, e.edge.a), sb = dot(c.direction, e.edge.b);
            c.runs.back().extents.push_back({std::min(sa, sb), std::max(sa, sb), i});
        }
        for (Run& run : c.runs) {
            std::sort(run.extents.begin(), run.extents.end(), [](const Extent& a, const Extent& b) {
                return a.lo < b.lo || (a.lo == b.lo && a.edge < b.edge);
            });
            for (std::size_t k = 1; k < run.extents.size(); ++k)
                run.extents[k].hi_so_far =
                    std::max(run.extents[k].hi_so_far, run.extents[k - 1].hi_so_far);
        }
    }
}

bool SeamIndex::runs_on(std::uint32_t index, Vec2 corner, Vec2 leaving) const {
    const Line line = line_of(leaving);
    const double offset = cross(line.direction, corner);
    const double window = corner_pad(corner) + offset_slack_;
    const auto search = [&](double lo, double hi) {
        auto it = std::lower_bound(clusters_.begin(), clusters_.end(), lo,
                                   [](const Cluster& c, double v) { return c.key_max < v; });
        for (; it != clusters_.end() && it->key_min <= hi; ++it) {
            const Cluster& c = *it;
            // An edge that runs on from the corner covers it along the line,
            // up to the pad and to how far its direction and `leaving` may
            // stray from the cluster's (2 rad per unit of key, at most).
            const double stray = 2.0 * (c.key_max - c.key_min) + 2.0 * kKeyTolerance;
            const double reach = window + corner_pad(corner) + stray * max_length_;
            const double t = dot(c.direction, corner);
            auto run = std::lower_bound(c.runs.begin(), c.runs.end(), offset - window,
                                        [](const Run& r, double v) { return r.offset_max < v; });
            for (; run != c.runs.end() && run->offset_min <= offset + window; ++run) {
                // Extents starting at or before t + reach; back while one may end past t - reach.
                auto k = std::upper_bound(run->extents.begin(), run->extents.end(), t + reach,
                                          [](double v, const Extent& x) { return v < x.lo; });
                while (k != run->extents.begin()) {
                    --k;
                    if (k->hi_so_far < t - reach) break;
                    const LineEdge& e = c.edges[k->edge];
                    if (e.offset < offset - window || e.offset > offset + window) continue;
                    if (e.owner != index && continues(e.edge, corner, leaving)) return true;
                }
            }
        }
        return false;
    };
    // Keys wrap: a direction just short of straight down is parallel to straight up.
    const double lo = line.key - kKeyTolerance, hi = line.key + kKeyTolerance;
    return search(lo, hi) || (hi > 1.0 && search(-1.0, hi - 2.0)) ||
           (lo < -1.0 + 2.0 * kKeyTolerance && search(lo + 2.0, 1.0));
}

std::uint8_t SeamIndex::seam_corners(std::uint32_t index) const {
    CornerEdges corners[4];
    const int count = corners_of(statics_[index].state, corners);
    std::uint8_t mask = 0;
    for (int k = 0; k < count; ++k) {
        bool seam = false;
        for (int l = 0; l < corners[k].count && !seam; ++l)
            seam = runs_on(index, corners[k].corner, corners[k].leaving[l]);
        if (seam) mask = static_cast<std::uint8_t>(mask | (1u << k));
    }
    return mask;
}

}  // namespace carom::physics::detail
