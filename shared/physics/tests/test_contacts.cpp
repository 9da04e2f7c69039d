// Contacts of a step (contact.hpp, World::contacts): deterministic order, and determinism of
// whole runs: identical worlds, copies and moved worlds step identically, bit for bit.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::box_def;
using test::disk_def;
using test::segment_def;

namespace {

std::uint64_t bits(double d) {
    return std::bit_cast<std::uint64_t>(d);
}

bool same_bits(Vec2 a, Vec2 b) {
    return bits(a.x) == bits(b.x) && bits(a.y) == bits(b.y);
}

bool same_contact(const Contact& a, const Contact& b) {
    return bits(a.time) == bits(b.time) && a.disk == b.disk && a.other == b.other &&
           same_bits(a.point, b.point) && same_bits(a.normal, b.normal) &&
           bits(a.impulse) == bits(b.impulse);
}

bool same_contacts(const World& a, const World& b) {
    const auto ca = a.contacts();
    const auto cb = b.contacts();
    if (ca.size() != cb.size()) return false;
    for (std::size_t i = 0; i < ca.size(); ++i) {
        if (!same_contact(ca[i], cb[i])) return false;
    }
    return true;
}

bool same_disks(const World& a, const World& b) {
    const auto da = a.disks();
    const auto db = b.disks();
    if (da != db) return false;
    for (BodyId id : da) {
        if (!same_bits(a.disk(id).position, b.disk(id).position)) return false;
        if (!same_bits(a.disk(id).velocity, b.disk(id).velocity)) return false;
    }
    return true;
}

// A crowded arena [0,200]^2 with walls, oriented boxes and segments inside, 150 disks with
// random sizes, masses, materials and speeds up to ~200 units/s.
World busy_world(std::uint32_t seed) {
    World w;
    auto wall = [&](Vec2 c, Vec2 h) { (void)w.create_box(box_def(c, h)); };
    wall({-5.0, 100.0}, {5.0, 110.0});
    wall({205.0, 100.0}, {5.0, 110.0});
    wall({100.0, -5.0}, {110.0, 5.0});
    wall({100.0, 205.0}, {110.0, 5.0});
    (void)w.create_box(box_def({60.0, 60.0}, {8.0, 2.0}, {0.6, 0.8}));
    BoxDef slider = box_def({140.0, 60.0}, {6.0, 3.0}, {-0.8, 0.6});
    slider.common.response = WallResponse::slide;
    (void)w.create_box(slider);
    (void)w.create_segment(segment_def({40.0, 140.0}, {70.0, 160.0}));
    SegmentDef rough = segment_def({130.0, 150.0}, {160.0, 130.0});
    rough.common.material = {0.7, 0.3};
    (void)w.create_segment(rough);

    test::XorShift32 rng(seed);
    std::vector<Vec2> placed;
    std::vector<double> radii;
    const Vec2 obstacles[] = {{60.0, 60.0}, {140.0, 60.0}, {55.0, 150.0}, {145.0, 140.0}};
    int attempts = 0;
    while (placed.size() < 150u && attempts < 100000) {
        ++attempts;
        const double r = rng.uniform(1.0, 3.0);
        const Vec2 p{rng.uniform(r + 0.5, 200.0 - r - 0.5), rng.uniform(r + 0.5, 200.0 - r - 0.5)};
        bool ok = true;
        for (Vec2 o : obstacles)
            ok = ok && length(p - o) > r + 20.0;
        for (std::size_t i = 0; ok && i < placed.size(); ++i) {
            ok = length(p - placed[i]) > r + radii[i] + 0.1;
        }
        if (!ok) continue;
        placed.push_back(p);
        radii.push_back(r);
        // one draw per statement: function arguments are evaluated in an unspecified order
        const Vec2 v{rng.uniform(-200.0, 200.0), rng.uniform(-200.0, 200.0)};
        const double mass = rng.uniform(0.5, 5.0);
        DiskDef d = disk_def(p, v, r, mass);
        d.material = {rng.uniform(0.5, 1.0), rng.uniform(0.0, 0.5)};
        (void)w.create_disk(d);
    }
    REQUIRE(placed.size() == 150u);
    return w;
}

}  // namespace

TEST_CASE("contacts of a step are ordered by time of impact, then by disk id") {
    // Dyadic numbers keep every time exact. Floor segment (-64,0)-(64,0), radii 1, speed 32:
    // disk 0 from y = 1.5 hits at 0.5/32 = 1/64; disks 1 and 2 from y = 1.25 hit at 1/128.
    // Expected order: disk 1, disk 2 (tie at 1/128 broken by id), disk 0.
    World w;
    (void)w.create_segment(segment_def({-64.0, 0.0}, {64.0, 0.0}));
    const BodyId d0 = w.create_disk(disk_def({0.0, 1.5}, {0.0, -32.0}));
    const BodyId d1 = w.create_disk(disk_def({-8.0, 1.25}, {0.0, -32.0}));
    const BodyId d2 = w.create_disk(disk_def({8.0, 1.25}, {0.0, -32.0}));
    w.step();
    const auto c = w.contacts();
    REQUIRE(c.size() == 3u);
    CHECK(c[0].disk == d1);
    CHECK(c[1].disk == d2);
    CHECK(c[2].disk == d0);
    CHECK(c[0].time == 1.0 / 128.0);
    CHECK(c[1].time == 1.0 / 128.0);
    CHECK(c[2].time == 1.0 / 64.0);
}

TEST_CASE("simultaneous impacts of one disk with two walls are resolved in static id order") {
    // Disk at (1.5,1.5), r 1, velocity (-32,-32): touches the wall x = 0 and the floor y = 0 at
    // the same instant t = 0.5/32 = 1/64. Elastic: after both, velocity (32, 32).
    for (bool wall_first : {true, false}) {
        CAPTURE(wall_first);
        World w;
        StaticId wall;
        StaticId floor;
        if (wall_first) {
            wall = w.create_segment(segment_def({0.0, 0.0}, {0.0, 64.0}));
            floor = w.create_segment(segment_def({0.0, 0.0}, {64.0, 0.0}));
        } else {
            floor = w.create_segment(segment_def({0.0, 0.0}, {64.0, 0.0}));
            wall = w.create_segment(segment_def({0.0, 0.0}, {0.0, 64.0}));
        }
        const BodyId id = w.create_disk(disk_def({1.5, 1.5}, {-32.0, -32.0}));
        w.step();
        const auto c = w.contacts();
        REQUIRE(c.size() == 2u);
        const StaticId first = wall_first ? wall : floor;
        const StaticId second = wall_first ? floor : wall;
        CHECK(c[0].other == ShapeRef{ShapeKind::segment, first.index, first.generation});
        CHECK(c[1].other == ShapeRef{ShapeKind::segment, second.index, second.generation});
        CHECK(c[0].time == 1.0 / 64.0);
        CHECK(c[1].time == 1.0 / 64.0);
        CHECK_VEC_NEAR(w.disk(id).velocity, (Vec2{32.0, 32.0}), 1e-12);
    }
}

TEST_CASE("contacts of a busy step are sorted by time, and normals are unit vectors") {
    World w = busy_world(12345u);
    std::size_t total = 0;
    for (int t = 0; t < 120; ++t) {
        w.step();
        const auto c = w.contacts();
        total += c.size();
        for (std::size_t i = 0; i < c.size(); ++i) {
            CHECK(length(c[i].normal) == doctest::Approx(1.0).epsilon(1e-12));
            CHECK(c[i].time >= 0.0);
            CHECK(c[i].time <= w.def().tick_seconds);
            CHECK(c[i].impulse >= 0.0);
            if (c[i].other.is_disk()) CHECK(c[i].other.index > c[i].disk.index);
            if (i > 0) CHECK(c[i - 1].time <= c[i].time);
        }
    }
    MESSAGE("contacts in 120 busy ticks: " << total);
    CHECK(total > 100u);  // the scene really is busy
}

TEST_CASE("contacts are cleared by a step without impacts") {
    World w;
    (void)w.create_segment(segment_def({-64.0, 0.0}, {64.0, 0.0}));
    (void)w.create_disk(disk_def({0.0, 1.25}, {0.0, -32.0}));
    w.step();
    CHECK(w.contacts().size() == 1u);
    w.step();  // now moving up and away
    CHECK(w.contacts().empty());
}

TEST_CASE("two identical worlds stepped identically produce identical contacts and hashes") {
    World a = busy_world(777u);
    World b = busy_world(777u);
    REQUIRE(a.state_hash() == b.state_hash());
    for (int t = 0; t < 200; ++t) {
        a.step();
        b.step();
        REQUIRE(a.state_hash() == b.state_hash());
        REQUIRE(same_contacts(a, b));
    }
    CHECK(same_disks(a, b));
    // a different seed gives a different world
    CHECK(busy_world(778u).state_hash() != busy_world(777u).state_hash());
}

TEST_CASE("a copied world steps exactly like its original") {
    World a = busy_world(4242u);
    for (int t = 0; t < 50; ++t)
        a.step();
    World b(a);  // copy constructor
    World c;
    c = a;  // copy assignment
    CHECK(b.state_hash() == a.state_hash());
    CHECK(c.state_hash() == a.state_hash());
    for (int t = 0; t < 100; ++t) {
        a.step();
        b.step();
        c.step();
        REQUIRE(a.state_hash() == b.state_hash());
        REQUIRE(a.state_hash() == c.state_hash());
        REQUIRE(same_contacts(a, b));
        REQUIRE(same_contacts(a, c));
    }
    CHECK(same_disks(a, b));
    CHECK(a.tick() == b.tick());
}

TEST_CASE("a copy is independent of its original") {
    World a = busy_world(99u);
    const std::uint64_t before = a.state_hash();
    World b(a);
    b.step();
    const BodyId first = b.disks().front();
    b.set_velocity(first, {1.0, 2.0});
    b.destroy(b.disks().back());
    CHECK(a.state_hash() == before);
    CHECK(a.tick() == 0u);
    CHECK(a.disks().size() == 150u);
    CHECK(b.disks().size() == 149u);
}

TEST_CASE("a moved world steps exactly like the world it was moved from would have") {
    World ref = busy_world(31337u);
    World src = busy_world(31337u);
    for (int t = 0; t < 20; ++t) {
        ref.step();
        src.step();
    }
    World moved(std::move(src));
    for (int t = 0; t < 50; ++t) {
        ref.step();
        moved.step();
        REQUIRE(ref.state_hash() == moved.state_hash());
    }
}
