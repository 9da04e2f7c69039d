// The disks' broadphase grids against brute force: every overlapping pair
// and every query hit is reported exactly once, whatever the mix of sizes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "anchor_grid.hpp"
#include "hash_grid.hpp"

namespace carom::physics::detail {
namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;

// Boxes on a 1/8 lattice, so float rounding in the grids never decides an
// overlap: the grids must report exactly what brute force finds.
struct Lattice {
    std::uint32_t state;
    double next(double lo, double hi) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        const auto steps = static_cast<std::uint32_t>((hi - lo) * 8.0);
        return lo + static_cast<double>(state % (steps + 1)) / 8.0;
    }
};

// `large_every`: one box in that many is many times the usual size.
std::vector<Aabb> random_boxes(std::uint32_t seed, std::size_t n, std::size_t large_every) {
    Lattice rng{seed};
    std::vector<Aabb> boxes(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double size = i % large_every == 0 ? rng.next(20.0, 300.0) : rng.next(0.0, 6.0);
        const double x = rng.next(-200.0, 200.0);
        const double y = rng.next(-200.0, 200.0);
        boxes[i] = {{x, y}, {x + size, y + rng.next(0.0, size)}};
    }
    return boxes;
}

std::vector<Pair> brute_force_pairs(const std::vector<Aabb>& boxes,
                                    const std::vector<std::uint8_t>& present) {
    std::vector<Pair> pairs;
    for (std::uint32_t i = 0; i < boxes.size(); ++i) {
        for (std::uint32_t j = i + 1; j < boxes.size(); ++j) {
            if (present[i] && present[j] && overlaps(boxes[i], boxes[j])) pairs.emplace_back(i, j);
        }
    }
    return pairs;
}

TEST_CASE("anchor grid reports each overlapping pair once, for any mix of sizes") {
    // From no large boxes, through a short list, to enough for a coarser grid.
    for (const std::size_t large_every : {1000000u, 100u, 7u, 2u}) {
        for (std::uint32_t seed = 1; seed <= 4; ++seed) {
            CAPTURE(large_every);
            CAPTURE(seed);
            const std::vector<Aabb> boxes = random_boxes(seed, 1500, large_every);
            std::vector<std::uint8_t> present(boxes.size(), 1u);
            for (std::size_t i = 0; i < present.size(); i += 11)
                present[i] = 0;
            AnchorGrid grid;
            grid.build(boxes, present);
            std::vector<Pair> found{{7, 7}};  // replaced, not appended to
            grid.find_pairs(found);
            for (const auto& [i, j] : found)
                CHECK(i < j);
            std::sort(found.begin(), found.end());
            CHECK(std::adjacent_find(found.begin(), found.end()) == found.end());
            CHECK(found == brute_force_pairs(boxes, present));

            // Queries, including boxes larger than the whole scene.
            Lattice rng{seed * 7919u};
            for (int q = 0; q < 200; ++q) {
                const double x = rng.next(-250.0, 250.0);
                const double y = rng.next(-250.0, 250.0);
                const double size = q % 50 == 0 ? 1000.0 : rng.next(0.0, 20.0);
                const Aabb query{{x, y}, {x + size, y + size}};
                std::vector<std::uint32_t> hits;
                grid.query(query, [&](std::uint32_t i) { hits.push_back(i); });
                std::sort(hits.begin(), hits.end());
                CHECK(std::adjacent_find(hits.begin(), hits.end()) == hits.end());
                std::vector<std::uint32_t> expected;
                for (std::uint32_t i = 0; i < boxes.size(); ++i) {
                    if (present[i] && overlaps(boxes[i], query)) expected.push_back(i);
                }
                CHECK(hits == expected);
            }
        }
    }
}

TEST_CASE("anchor grid copes with no boxes, one box and boxes that are points") {
    AnchorGrid grid;
    const std::vector<Aabb> none;
    grid.build(none, {});
    std::vector<Pair> found;
    grid.find_pairs(found);
    CHECK(found.empty());
    int reports = 0;
    grid.query({{0, 0}, {1, 1}}, [&](std::uint32_t) { ++reports; });
    CHECK(reports == 0);

    const std::vector<Aabb> points{{{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}, {{2, 2}, {2, 2}}};
    const std::vector<std::uint8_t> present(points.size(), 1u);
    grid.build(points, present);
    grid.find_pairs(found);
    CHECK(found == std::vector<Pair>{{0, 1}});
}

TEST_CASE("anchor grid finds every pair in crowded cells") {
    // Clusters of 1 to 40 equal boxes on a lattice: cells and their
    // neighbours hold from one box to far more than a gathered block.
    std::vector<Aabb> boxes;
    for (int cluster = 0; cluster < 40; ++cluster) {
        const double x = 3.0 * (cluster % 8);
        const double y = 3.0 * (cluster / 8);
        for (int k = 0; k <= cluster; ++k)
            boxes.push_back({{x, y}, {x + 2.0, y + 2.0}});
    }
    const std::vector<std::uint8_t> present(boxes.size(), 1u);
    AnchorGrid grid;
    grid.build(boxes, present);
    std::vector<Pair> found;
    grid.find_pairs(found);
    std::sort(found.begin(), found.end());
    CHECK(std::adjacent_find(found.begin(), found.end()) == found.end());
    CHECK(found == brute_force_pairs(boxes, present));
}

TEST_CASE("hash grid finds what was inserted and forgets what was removed") {
    const std::vector<Aabb> boxes = random_boxes(3, 600, 9);
    HashGrid grid;
    for (int round = 0; round < 3; ++round) {  // resets reuse the memory
        CAPTURE(round);
        grid.reset(8.0, boxes.size());
        std::set<std::uint32_t> stored;
        for (std::uint32_t i = 0; i < boxes.size(); ++i) {
            grid.insert(i, boxes[i]);
            stored.insert(i);
            if (i % 3 == 0) {  // move an earlier one: remove, then insert elsewhere
                grid.remove(i / 2);
                stored.erase(i / 2);
            }
        }
        for (std::uint32_t i = 0; i < boxes.size(); ++i)
            CHECK(grid.contains(i) == (stored.count(i) == 1));
        Lattice rng{17u + static_cast<std::uint32_t>(round)};
        for (int q = 0; q < 200; ++q) {
            const double x = rng.next(-250.0, 250.0);
            const double y = rng.next(-250.0, 250.0);
            const Aabb query{{x, y}, {x + rng.next(0.0, 30.0), y + rng.next(0.0, 30.0)}};
            std::vector<std::uint32_t> hits;
            grid.query(query, [&](std::uint32_t i) { hits.push_back(i); });
            std::sort(hits.begin(), hits.end());
            std::vector<std::uint32_t> expected;
            for (const std::uint32_t i : stored) {
                if (overlaps(boxes[i], query)) expected.push_back(i);
            }
            CHECK(hits == expected);
        }
    }
}

}  // namespace
}  // namespace carom::physics::detail
