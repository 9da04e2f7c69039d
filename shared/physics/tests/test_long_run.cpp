// The long test: 1000 elastic disks in a walled arena for 10 000 ticks. Nothing escapes, no
// NaN, no overlap deeper than 1e-6, kinetic energy conserved to 1e-9.
// Run alone with: physics_tests -ts=long   (skip with -tse=long)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::box_def;
using test::disk_def;

namespace {
constexpr double kArena = 1000.0;
constexpr double kWallHalf = 5.0;  // walls 10 thick, just outside the arena
constexpr int kDisks = 1000;
constexpr int kTicks = 10000;
constexpr double kMaxOverlap = 1e-6;

struct Overlap {
    double depth = 0.0;
    std::size_t a = 0;
    std::size_t b = 0;
};

// Deepest pairwise overlap, by sorting on x and sweeping (radii <= 5, so |dx| < 10).
Overlap deepest_overlap(const World& w, const std::vector<BodyId>& ids) {
    struct Item {
        double x, y, r;
        std::size_t i;
    };
    std::vector<Item> items;
    items.reserve(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const DiskState& d = w.disk(ids[i]);
        items.push_back({d.position.x, d.position.y, d.radius, i});
    }
    std::sort(items.begin(), items.end(),
              [](const Item& a, const Item& b) { return a.x < b.x || (a.x == b.x && a.i < b.i); });
    Overlap worst;
    for (std::size_t i = 0; i < items.size(); ++i) {
        for (std::size_t j = i + 1; j < items.size() && items[j].x - items[i].x < 10.0; ++j) {
            const double dx = items[j].x - items[i].x;
            const double dy = items[j].y - items[i].y;
            const double depth = items[i].r + items[j].r - std::sqrt(dx * dx + dy * dy);
            if (depth > worst.depth) worst = {depth, items[i].i, items[j].i};
        }
    }
    return worst;
}
}  // namespace

TEST_CASE(
    "1000 elastic disks in a walled arena for 10000 ticks: nothing escapes, "
    "overlaps or gains energy" *
    doctest::test_suite("long")) {
    const std::uint32_t seed = 20240607u;
    MESSAGE("xorshift32 seed " << seed);
    test::XorShift32 rng(seed);

    World w;
    auto wall = [&](Vec2 c, Vec2 h) {
        BoxDef b = box_def(c, h);
        b.common.material = {1.0, 0.0};
        (void)w.create_box(b);
    };
    // left, right, bottom, top; long enough to close the corners
    wall({-kWallHalf, kArena / 2}, {kWallHalf, kArena / 2 + 2 * kWallHalf});
    wall({kArena + kWallHalf, kArena / 2}, {kWallHalf, kArena / 2 + 2 * kWallHalf});
    wall({kArena / 2, -kWallHalf}, {kArena / 2 + 2 * kWallHalf, kWallHalf});
    wall({kArena / 2, kArena + kWallHalf}, {kArena / 2 + 2 * kWallHalf, kWallHalf});

    // Place disks without overlap (grid of 10x10 cells for the rejection test).
    std::vector<BodyId> ids;
    std::vector<Vec2> pos;
    std::vector<double> rad;
    std::vector<std::vector<std::size_t>> cells(100 * 100);
    auto cell_of = [](Vec2 p) {
        const int cx = std::clamp(static_cast<int>(p.x / 10.0), 0, 99);
        const int cy = std::clamp(static_cast<int>(p.y / 10.0), 0, 99);
        return std::pair<int, int>{cx, cy};
    };
    int attempts = 0;
    while (static_cast<int>(ids.size()) < kDisks) {
        REQUIRE(++attempts < 1000000);
        const double r = rng.uniform(2.0, 5.0);
        const Vec2 p{rng.uniform(r, kArena - r), rng.uniform(r, kArena - r)};
        const auto [cx, cy] = cell_of(p);
        bool free = true;
        for (int gx = std::max(cx - 1, 0); free && gx <= std::min(cx + 1, 99); ++gx) {
            for (int gy = std::max(cy - 1, 0); free && gy <= std::min(cy + 1, 99); ++gy) {
                for (std::size_t k : cells[static_cast<std::size_t>(gx * 100 + gy)]) {
                    if (length(p - pos[k]) < r + rad[k] + 1e-3) {
                        free = false;
                        break;
                    }
                }
            }
        }
        if (!free) continue;
        // velocity uniform in the disk of radius 100 (rejection sampling, no trigonometry)
        Vec2 v;
        do {
            v = {rng.uniform(-100.0, 100.0), rng.uniform(-100.0, 100.0)};
        } while (length_squared(v) > 100.0 * 100.0);
        DiskDef d = disk_def(p, v, r, r * r);  // mass ~ area
        d.material = {1.0, 0.0};
        cells[static_cast<std::size_t>(cx * 100 + cy)].push_back(pos.size());
        pos.push_back(p);
        rad.push_back(r);
        ids.push_back(w.create_disk(d));
    }
    REQUIRE(deepest_overlap(w, ids).depth <= 0.0);

    const double e0 = test::kinetic_energy(w);
    std::uint64_t contacts = 0;
    std::uint64_t disk_contacts = 0;
    std::uint32_t parked = 0;
    std::uint32_t exhausted = 0;
    double worst_overlap = 0.0;
    int escaped = 0;
    int non_finite = 0;
    for (int tick = 1; tick <= kTicks; ++tick) {
        w.step();
        contacts += w.contacts().size();
        for (const Contact& c : w.contacts())
            disk_contacts += c.other.is_disk() ? 1u : 0u;
        parked += w.last_step_stats().parked_disks;
        exhausted += w.last_step_stats().tick_budget_exhausted ? 1u : 0u;
        // every tick: nothing escapes, nothing becomes NaN (cheap, O(n))
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const DiskState& d = w.disk(ids[i]);
            if (!is_finite(d.position) || !is_finite(d.velocity)) {
                if (++non_finite <= 3) {
                    INFO("tick " << tick << ", disk " << i << ", position " << d.position
                                 << ", velocity " << d.velocity);
                    CHECK(is_finite(d.position));
                    CHECK(is_finite(d.velocity));
                }
                continue;
            }
            const double lo = d.radius - kMaxOverlap;
            const double hi = kArena - d.radius + kMaxOverlap;
            if (d.position.x < lo || d.position.x > hi || d.position.y < lo || d.position.y > hi) {
                if (++escaped <= 3) {
                    INFO("tick " << tick << ", disk " << i << ", radius " << d.radius
                                 << ", position " << d.position);
                    CHECK(d.position.x >= lo);
                    CHECK(d.position.x <= hi);
                    CHECK(d.position.y >= lo);
                    CHECK(d.position.y <= hi);
                }
            }
        }
        if (non_finite > 0) break;
        if (tick % 100 == 0 || tick == kTicks) {
            const Overlap o = deepest_overlap(w, ids);
            worst_overlap = std::max(worst_overlap, o.depth);
            if (o.depth > kMaxOverlap) {
                INFO("tick " << tick << ", disks " << o.a << " and " << o.b << ", depth "
                             << o.depth);
                CHECK(o.depth <= kMaxOverlap);
            }
        }
    }
    CHECK(escaped == 0);
    CHECK(non_finite == 0);
    CHECK(worst_overlap <= kMaxOverlap);

    const double e1 = test::kinetic_energy(w);
    MESSAGE("contacts " << contacts << " (disk-disk " << disk_contacts << "), parked disk-ticks "
                        << parked << ", ticks with exhausted budget " << exhausted
                        << ", worst overlap " << worst_overlap << ", energy " << e0 << " -> " << e1
                        << ", ratio - 1 = " << (e1 / e0 - 1.0));
    CHECK(std::abs(e1 / e0 - 1.0) <= 1e-9);
    CHECK(w.tick() == static_cast<std::uint64_t>(kTicks));
}
