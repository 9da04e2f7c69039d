// SeamIndex finds exactly the seams a look at every pair of statics finds,
// on layouts made to stress it: walls of abutting boxes (long collinear
// runs), rotated rows, chains of collinear segments, near-vertical lines
// (where direction keys wrap) and random overlapping boxes.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "smooth_corners.hpp"

using namespace carom::physics;
using namespace carom::physics::detail;

namespace {

StaticSlot box_slot(Vec2 center, Vec2 half, double angle) {
    StaticSlot s;
    s.alive = true;
    s.state.kind = ShapeKind::box;
    s.state.box = {center, half, {std::cos(angle), std::sin(angle)}};
    return s;
}

StaticSlot segment_slot(Vec2 a, Vec2 b) {
    StaticSlot s;
    s.alive = true;
    s.state.kind = ShapeKind::segment;
    s.state.segment = {a, b};
    return s;
}

// The definition: a corner is a seam when an edge of another static continues it.
std::uint8_t seams_by_every_pair(const std::vector<StaticSlot>& statics, std::uint32_t index) {
    CornerEdges corners[4];
    const int count = corners_of(statics[index].state, corners);
    std::uint8_t mask = 0;
    for (int k = 0; k < count; ++k) {
        bool seam = false;
        for (std::uint32_t j = 0; j < statics.size() && !seam; ++j) {
            if (j == index || !statics[j].alive) continue;
            Edge edges[4];
            const int n = edges_of(statics[j].state, edges);
            for (int e = 0; e < n && !seam; ++e)
                for (int l = 0; l < corners[k].count && !seam; ++l)
                    seam = continues(edges[e], corners[k].corner, corners[k].leaving[l]);
        }
        if (seam) mask = static_cast<std::uint8_t>(mask | (1u << k));
    }
    return mask;
}

void check_same(const std::vector<StaticSlot>& statics, const char* layout) {
    CAPTURE(layout);
    const SeamIndex index(statics);
    std::size_t seams = 0;
    for (std::uint32_t i = 0; i < statics.size(); ++i) {
        const std::uint8_t want = seams_by_every_pair(statics, i);
        CAPTURE(i);
        CHECK(index.seam_corners(i) == want);
        seams += static_cast<std::size_t>(std::popcount(want));
    }
    std::printf("  %s: %zu statics, %zu seam corners\n", layout, statics.size(), seams);
}

}  // namespace

TEST_CASE("the seam index agrees with every pair on walls, rows, chains and clutter") {
    const std::uint64_t seed = std::random_device{}();
    std::printf("seam index seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);

    // A wall of abutting boxes: every row and column edge on shared lines.
    std::vector<StaticSlot> wall;
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 8; ++j)
            wall.push_back(box_slot({2.0 * i, 2.0 * j}, {1.0, 1.0}, 0.0));
    check_same(wall, "wall of abutting boxes");

    // Rotated rows of abutting boxes, at random angles (near-vertical included).
    std::vector<StaticSlot> rows;
    for (int r = 0; r < 6; ++r) {
        const double angle = r == 0 ? M_PI / 2 - 1e-12 : unit(rng) * M_PI;
        const Vec2 dir{std::cos(angle), std::sin(angle)};
        const Vec2 origin{unit(rng) * 100.0, unit(rng) * 100.0};
        for (int i = 0; i < 20; ++i)
            rows.push_back(box_slot(origin + dir * (2.0 * i), {1.0, 0.5}, angle));
    }
    check_same(rows, "rotated rows");

    // Chains of collinear segments split at random points, some overlapping.
    std::vector<StaticSlot> chains;
    for (int c = 0; c < 8; ++c) {
        const double angle = c == 0 ? M_PI / 2 : unit(rng) * 2.0 * M_PI;
        const Vec2 dir{std::cos(angle), std::sin(angle)};
        const Vec2 origin{unit(rng) * 50.0, unit(rng) * 50.0};
        double at = 0.0;
        for (int i = 0; i < 25; ++i) {
            const double len = 0.5 + unit(rng) * 3.0;
            const double back = unit(rng) < 0.2 ? unit(rng) * len : 0.0;  // overlap the last
            chains.push_back(segment_slot(origin + dir * (at - back), origin + dir * (at + len)));
            at += len;
        }
    }
    check_same(chains, "collinear segment chains");

    // Clutter: random boxes, overlapping, some on a shared grid of lines.
    std::vector<StaticSlot> clutter;
    for (int i = 0; i < 300; ++i) {
        const bool snapped = unit(rng) < 0.5;
        const Vec2 c = snapped ? Vec2{std::floor(unit(rng) * 20.0), std::floor(unit(rng) * 20.0)}
                               : Vec2{unit(rng) * 20.0, unit(rng) * 20.0};
        const Vec2 h = snapped ? Vec2{0.5, 0.5} : Vec2{0.2 + unit(rng), 0.2 + unit(rng)};
        clutter.push_back(box_slot(c, h, snapped ? 0.0 : unit(rng) * M_PI));
    }
    clutter[7].alive = false;  // a free slot is no static
    check_same(clutter, "random overlapping boxes");
}
