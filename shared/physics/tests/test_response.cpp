// Collision response inside a World: elastic disk-disk collisions against the textbook
// formulas, restitution and friction as products, infinite mass, slide walls, filters and
// the inverse-mass split of overlap resolution.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::box_def;
using test::disk_def;
using test::segment_def;

namespace {
constexpr double kTick = 1.0 / 60.0;
constexpr double kTight = 1e-12;

// 1D elastic collision (textbook): v1' = ((m1 - m2) v1 + 2 m2 v2) / (m1 + m2).
double elastic_1d(double m1, double v1, double m2, double v2) {
    return ((m1 - m2) * v1 + 2.0 * m2 * v2) / (m1 + m2);
}

void check_relative(double actual, double expected, double rel) {
    INFO("actual " << actual << ", expected " << expected);
    CHECK(std::abs(actual - expected) <= rel * std::abs(expected));
}

SegmentDef floor_segment(Material m, WallResponse response = WallResponse::bounce) {
    SegmentDef s = segment_def({-100.0, 0.0}, {100.0, 0.0});
    s.common.material = m;
    s.common.response = response;
    return s;
}
}  // namespace

TEST_CASE("elastic head-on collision of masses 1 and 3 matches the 1D formula exactly") {
    // m1 = 1, v1 = 10; m2 = 3, v2 = -2. Gap 0.1, closing speed 12 -> contact at t = 1/120.
    // v1' = ((1-3)*10 + 2*3*(-2))/4 = (-20 - 12)/4 = -8
    // v2' = ((3-1)*(-2) + 2*1*10)/4 = (-4 + 20)/4 = 4
    // x1 = 10/120 - 8/120 = 1/60 ; x2 = 2.1 - 2/120 + 4/120 = 2.1 + 1/60
    World w;
    const BodyId a = w.create_disk(disk_def({0.0, 0.0}, {10.0, 0.0}, 1.0, 1.0));
    const BodyId b = w.create_disk(disk_def({2.1, 0.0}, {-2.0, 0.0}, 1.0, 3.0));
    w.step();
    CHECK_VEC_NEAR(w.disk(a).velocity, (Vec2{-8.0, 0.0}), kTight);
    CHECK_VEC_NEAR(w.disk(b).velocity, (Vec2{4.0, 0.0}), kTight);
    CHECK_VEC_NEAR(w.disk(a).position, (Vec2{1.0 / 60.0, 0.0}), kTight);
    CHECK_VEC_NEAR(w.disk(b).position, (Vec2{2.1 + 1.0 / 60.0, 0.0}), kTight);

    REQUIRE(w.contacts().size() == 1u);
    const Contact& c = w.contacts()[0];
    CHECK(c.disk == a);  // the lower index is the one swept into `other`
    CHECK(c.other == ShapeRef{ShapeKind::disk, b.index, b.generation});
    CHECK(c.time == doctest::Approx(1.0 / 120.0).epsilon(kTight));
    CHECK_VEC_NEAR(c.normal, (Vec2{-1.0, 0.0}), kTight);  // from b towards a
    // on b's surface at contact: 2.1 - 2/120 - 1
    CHECK_VEC_NEAR(c.point, (Vec2{1.1 - 1.0 / 60.0, 0.0}), kTight);
    CHECK(c.impulse == doctest::Approx(18.0).epsilon(kTight));  // 1 * (10 - (-8))
}

TEST_CASE("elastic head-on collisions of unequal masses conserve momentum and energy") {
    struct Case {
        double m1, v1, m2, v2;
    };
    const std::vector<Case> cases = {
        {1.0, 10.0, 3.0, -2.0}, {2.0, 5.0, 5.0, 0.0},     {1.0, 10.0, 1.0, 0.0},
        {10.0, 1.0, 1.0, -9.0}, {1.0, 20.0, 1000.0, 0.0}, {0.001, 30.0, 7.0, -3.0},
    };
    for (const Case& k : cases) {
        CAPTURE(k.m1);
        CAPTURE(k.m2);
        World w;
        // gap 0.01; closing speed >= 6 -> contact before 1/600 s
        const BodyId a = w.create_disk(disk_def({0.0, 0.0}, {k.v1, 0.0}, 1.0, k.m1));
        const BodyId b = w.create_disk(disk_def({2.01, 0.0}, {k.v2, 0.0}, 1.0, k.m2));
        const Vec2 p0 = test::momentum(w);
        const double e0 = test::kinetic_energy(w);
        w.step();
        CHECK(w.disk(a).velocity.x ==
              doctest::Approx(elastic_1d(k.m1, k.v1, k.m2, k.v2)).epsilon(kTight));
        CHECK(w.disk(b).velocity.x ==
              doctest::Approx(elastic_1d(k.m2, k.v2, k.m1, k.v1)).epsilon(kTight));
        CHECK(w.disk(a).velocity.y == 0.0);
        CHECK(w.disk(b).velocity.y == 0.0);
        check_relative(test::momentum(w).x, p0.x, kTight);
        check_relative(test::kinetic_energy(w), e0, kTight);
        CHECK(w.contacts().size() == 1u);
    }
}

TEST_CASE("equal masses exchange velocities through a row of touching disks") {
    // A (v 10) hits B at rest, which touches C at rest: A -> 0, B -> 0, C -> 10.
    World w;
    const BodyId a = w.create_disk(disk_def({0.0, 0.0}, {10.0, 0.0}));
    const BodyId b = w.create_disk(disk_def({2.1, 0.0}, {0.0, 0.0}));
    const BodyId c = w.create_disk(disk_def({4.1, 0.0}, {0.0, 0.0}));
    w.step();
    CHECK_VEC_NEAR(w.disk(a).velocity, (Vec2{0.0, 0.0}), kTight);
    CHECK_VEC_NEAR(w.disk(b).velocity, (Vec2{0.0, 0.0}), kTight);
    CHECK_VEC_NEAR(w.disk(c).velocity, (Vec2{10.0, 0.0}), kTight);
    CHECK(w.contacts().size() == 2u);
}

TEST_CASE("elastic oblique collision of masses 2 and 5 matches the textbook decomposition") {
    // p1 = (0,0), v1 = (10,0), m1 = 2 ; p2 = (1.7,1.2), v2 = (-2,0), m2 = 5 ; radii 1.
    // d(t) = p1 - p2 + (v1 - v2) t = (-1.7 + 12t, -1.2): |d| = 2 at t = 1/120, d = (-1.6,-1.2)
    // normal n = (-0.8,-0.6). Normal speeds u1 = v1.n = -8, u2 = v2.n = 1.6.
    // u1' = ((2-5)(-8) + 2*5*1.6)/7 = 40/7 ; u2' = ((5-2)(1.6) + 2*2*(-8))/7 = -27.2/7
    // v1' = v1 + (u1' - u1) n = (10,0) + (96/7)(-0.8,-0.6) = (-6.8/7, -57.6/7)
    // v2' = v2 + (u2' - u2) n = (-2,0) + (-38.4/7)(-0.8,-0.6) = (16.72/7, 23.04/7)
    // momentum: (2*10 + 5*(-2), 0) = (10, 0) ; energy: (2*100 + 5*4)/2 = 110
    World w;
    const BodyId a = w.create_disk(disk_def({0.0, 0.0}, {10.0, 0.0}, 1.0, 2.0));
    const BodyId b = w.create_disk(disk_def({1.7, 1.2}, {-2.0, 0.0}, 1.0, 5.0));
    w.step();
    CHECK_VEC_NEAR(w.disk(a).velocity, (Vec2{-6.8 / 7.0, -57.6 / 7.0}), 1e-11);
    CHECK_VEC_NEAR(w.disk(b).velocity, (Vec2{16.72 / 7.0, 23.04 / 7.0}), 1e-11);
    const Vec2 p = test::momentum(w);
    check_relative(p.x, 10.0, kTight);
    CHECK(std::abs(p.y) <= kTight * 10.0);
    check_relative(test::kinetic_energy(w), 110.0, kTight);
    REQUIRE(w.contacts().size() == 1u);
    CHECK_VEC_NEAR(w.contacts()[0].normal, (Vec2{-0.8, -0.6}), 1e-11);
    CHECK(w.contacts()[0].time == doctest::Approx(1.0 / 120.0).epsilon(kTight));
}

TEST_CASE("restitution of a disk-disk contact is the product of both disks' restitution") {
    // e = 0.5 * 0.8 = 0.4; equal masses, v1 = 10, v2 = 0:
    // v1' = (v1 + v2 - e (v1 - v2))/2 = (10 - 4)/2 = 3 ; v2' = (10 + 4)/2 = 7
    World w;
    DiskDef da = disk_def({0.0, 0.0}, {10.0, 0.0});
    da.material.restitution = 0.5;
    DiskDef db = disk_def({2.1, 0.0}, {0.0, 0.0});
    db.material.restitution = 0.8;
    const BodyId a = w.create_disk(da);
    const BodyId b = w.create_disk(db);
    w.step();
    CHECK(w.disk(a).velocity.x == doctest::Approx(3.0).epsilon(kTight));
    CHECK(w.disk(b).velocity.x == doctest::Approx(7.0).epsilon(kTight));
    check_relative(test::momentum(w).x, 10.0, kTight);
}

TEST_CASE("restitution against a wall is the product of disk and wall restitution") {
    SUBCASE("0.5 * 0.5 = 0.25") {
        // falls 0.1 at 10/s -> contact at t = 0.01; v' = 0.25 * 10 = 2.5 up
        // y = 1 + 2.5 * (1/60 - 0.01) = 1 + 1/60 ; impulse = 1 * (1 + 0.25) * 10 = 12.5
        World w;
        const StaticId floor = w.create_segment(floor_segment({0.5, 0.0}));
        DiskDef d = disk_def({0.0, 1.1}, {0.0, -10.0});
        d.material.restitution = 0.5;
        const BodyId id = w.create_disk(d);
        w.step();
        CHECK_VEC_NEAR(w.disk(id).velocity, (Vec2{0.0, 2.5}), kTight);
        CHECK_VEC_NEAR(w.disk(id).position, (Vec2{0.0, 1.0 + 1.0 / 60.0}), kTight);
        REQUIRE(w.contacts().size() == 1u);
        const Contact& c = w.contacts()[0];
        CHECK(c.disk == id);
        CHECK(c.other == ShapeRef{ShapeKind::segment, floor.index, floor.generation});
        CHECK(c.time == doctest::Approx(0.01).epsilon(kTight));
        CHECK_VEC_NEAR(c.normal, (Vec2{0.0, 1.0}), kTight);
        CHECK_VEC_NEAR(c.point, (Vec2{0.0, 0.0}), kTight);
        CHECK(c.impulse == doctest::Approx(12.5).epsilon(kTight));
    }
    SUBCASE("a perfectly elastic wall keeps the disk's own bounce: 0.6 * 1") {
        World w;
        (void)w.create_segment(floor_segment({1.0, 0.0}));
        DiskDef d = disk_def({0.0, 1.1}, {0.0, -10.0});
        d.material.restitution = 0.6;
        const BodyId id = w.create_disk(d);
        w.step();
        CHECK_VEC_NEAR(w.disk(id).velocity, (Vec2{0.0, 6.0}), kTight);
    }
    SUBCASE("a dead box wall stops the bounce of an elastic disk: 1 * 0") {
        // box top face at y = 0; tangential velocity kept (no friction)
        World w;
        BoxDef b = box_def({0.0, -1.0}, {100.0, 1.0});
        b.common.material.restitution = 0.0;
        (void)w.create_box(b);
        const BodyId id = w.create_disk(disk_def({0.0, 1.1}, {3.0, -10.0}));
        w.step();
        CHECK_VEC_NEAR(w.disk(id).velocity, (Vec2{3.0, 0.0}), kTight);
        CHECK(w.disk(id).position.y == doctest::Approx(1.0).epsilon(1e-9));
    }
}

TEST_CASE("friction of a wall contact is the product of both coefficients (Coulomb)") {
    // disk mass 1, velocity (10,-10), elastic: normal impulse Jn = (1 + 1) * 10 = 20.
    // mu = 0.5 * 0.4 = 0.2 -> tangential impulse min(mu Jn, m |vt|) = min(4, 10) = 4 -> vx' = 6
    auto run = [](double disk_mu, double wall_mu) {
        World w;
        (void)w.create_segment(floor_segment({1.0, wall_mu}));
        DiskDef d = disk_def({0.0, 1.1}, {10.0, -10.0});
        d.material.friction = disk_mu;
        const BodyId id = w.create_disk(d);
        w.step();
        return w.disk(id).velocity;
    };
    CHECK_VEC_NEAR(run(0.5, 0.4), (Vec2{6.0, 10.0}), kTight);
    // a frictionless wall: 0.5 * 0 = 0, the tangential velocity is untouched
    CHECK_VEC_NEAR(run(0.5, 0.0), (Vec2{10.0, 10.0}), kTight);
    CHECK_VEC_NEAR(run(0.0, 0.9), (Vec2{10.0, 10.0}), kTight);
    // mu = 1: the cap m |vt| = 10 < mu Jn = 20 -> sliding stops, never reverses
    CHECK_VEC_NEAR(run(1.0, 1.0), (Vec2{0.0, 10.0}), kTight);
}

TEST_CASE("a disk of infinite mass is not moved by a collision") {
    SUBCASE("a light disk bounces off a resting infinite mass") {
        World w;
        const BodyId light = w.create_disk(disk_def({0.0, 0.0}, {10.0, 0.0}));
        const BodyId wall = w.create_disk(disk_def({2.1, 0.0}, {0.0, 0.0}, 1.0, kInfiniteMass));
        w.step();
        CHECK(w.disk(wall).position == Vec2{2.1, 0.0});
        CHECK(w.disk(wall).velocity == Vec2{0.0, 0.0});
        // limit m2 -> inf of the 1D formula: v1' = 2 v2 - v1 = -10
        CHECK_VEC_NEAR(w.disk(light).velocity, (Vec2{-10.0, 0.0}), kTight);
        REQUIRE(w.contacts().size() == 1u);
        CHECK(w.contacts()[0].impulse == doctest::Approx(20.0).epsilon(kTight));
    }
    SUBCASE("a moving infinite mass keeps its velocity and throws the light disk") {
        World w;
        const BodyId heavy = w.create_disk(disk_def({0.0, 0.0}, {10.0, 0.0}, 1.0, kInfiniteMass));
        const BodyId light = w.create_disk(disk_def({2.1, 0.0}, {0.0, 0.0}));
        w.step();
        CHECK(w.disk(heavy).velocity == Vec2{10.0, 0.0});
        CHECK(w.disk(heavy).position.x == doctest::Approx(10.0 / 60.0).epsilon(kTight));
        // v2' = 2 v1 - v2 = 20
        CHECK_VEC_NEAR(w.disk(light).velocity, (Vec2{20.0, 0.0}), kTight);
    }
    SUBCASE("overlap resolution never moves an infinite mass") {
        World w;
        const BodyId heavy = w.create_disk(disk_def({0.0, 0.0}, {0.0, 0.0}, 1.0, kInfiniteMass));
        const BodyId light = w.create_disk(disk_def({1.5, 0.0}, {0.0, 0.0}));
        w.step();
        CHECK(w.disk(heavy).position == Vec2{0.0, 0.0});
        // pushed out to touching: x = 2 (within the overlap tolerance)
        CHECK(w.disk(light).position.x >= 2.0 - w.def().overlap_tolerance - 1e-15);
        CHECK(w.disk(light).position.x == doctest::Approx(2.0).epsilon(1e-6));
        CHECK(w.disk(light).position.y == 0.0);
    }
}

TEST_CASE("overlap resolution splits the push in inverse-mass proportion") {
    // m_a = 1 at 0, m_b = 3 at 1.6, radii 1: depth 0.4. Inverse masses 1 and 1/3:
    // a moves -0.4 * 1/(4/3) = -0.3 ; b moves +0.4 * (1/3)/(4/3) = +0.1
    // the mass-weighted centre (1*0 + 3*1.6)/4 = 1.2 is unchanged
    World w;
    const BodyId a = w.create_disk(disk_def({0.0, 0.0}, {0.0, 0.0}, 1.0, 1.0));
    const BodyId b = w.create_disk(disk_def({1.6, 0.0}, {0.0, 0.0}, 1.0, 3.0));
    w.step();
    const double xa = w.disk(a).position.x;
    const double xb = w.disk(b).position.x;
    CHECK(xb - xa >= 2.0 - w.def().overlap_tolerance - 1e-15);
    CHECK(xa == doctest::Approx(-0.3).epsilon(1e-6));
    CHECK(xb == doctest::Approx(1.7).epsilon(1e-6));
    CHECK((xa + 3.0 * xb) / 4.0 == doctest::Approx(1.2).epsilon(kTight));
    // resolution moves positions only
    CHECK(w.disk(a).velocity == Vec2{0.0, 0.0});
    CHECK(w.disk(b).velocity == Vec2{0.0, 0.0});
    CHECK(w.last_step_stats().overlaps_resolved >= 1u);
}

TEST_CASE("WallResponse::slide removes only the normal velocity component") {
    SUBCASE("floor segment: (10,-10) -> (10,0), ignoring restitution and friction") {
        World w;
        (void)w.create_segment(floor_segment({1.0, 0.5}, WallResponse::slide));
        DiskDef d = disk_def({0.0, 1.1}, {10.0, -10.0});
        d.material.friction = 1.0;
        const BodyId id = w.create_disk(d);
        w.step();
        CHECK_VEC_NEAR(w.disk(id).velocity, (Vec2{10.0, 0.0}), kTight);
        // contact at t = 0.01, then slides along y = 1
        CHECK(w.disk(id).position.x == doctest::Approx(10.0 / 60.0).epsilon(kTight));
        CHECK(w.disk(id).position.y == doctest::Approx(1.0).epsilon(1e-9));
    }
    SUBCASE("oriented box face: -10 ax + 5 ay -> 5 ay") {
        // box axis ax = (0.6,0.8), ay = (-0.8,0.6), half (1,5); disk r 1 at 2.1 ax: gap 0.1
        // along ax, approach speed 10 -> t = 0.01. After: 5 ay = (-4, 3)
        const Vec2 ax{0.6, 0.8};
        const Vec2 ay{-0.8, 0.6};
        World w;
        BoxDef b = box_def({0.0, 0.0}, {1.0, 5.0}, ax);
        b.common.response = WallResponse::slide;
        (void)w.create_box(b);
        const BodyId id = w.create_disk(disk_def(ax * 2.1, ax * -10.0 + ay * 5.0));
        w.step();
        CHECK_VEC_NEAR(w.disk(id).velocity, (Vec2{-4.0, 3.0}), 1e-11);
    }
}

TEST_CASE("an elastic bounce off an oriented box reflects the normal component") {
    // same set-up as the slide case with bounce: -10 ax + 5 ay -> 10 ax + 5 ay = (2, 11)
    const Vec2 ax{0.6, 0.8};
    const Vec2 ay{-0.8, 0.6};
    World w;
    (void)w.create_box(box_def({0.0, 0.0}, {1.0, 5.0}, ax));
    const BodyId id = w.create_disk(disk_def(ax * 2.1, ax * -10.0 + ay * 5.0));
    const double e0 = test::kinetic_energy(w);
    w.step();
    CHECK_VEC_NEAR(w.disk(id).velocity, (Vec2{2.0, 11.0}), 1e-11);
    check_relative(test::kinetic_energy(w), e0, kTight);
}

TEST_CASE("a disk resting on a floor with no velocity stays exactly where it is") {
    World w;
    (void)w.create_segment(floor_segment({1.0, 0.0}));
    (void)w.create_box(box_def({10.0, -1.0}, {2.0, 1.0}));
    const BodyId on_seg = w.create_disk(disk_def({0.0, 1.0}, {0.0, 0.0}));
    const BodyId on_box = w.create_disk(disk_def({10.0, 1.0}, {0.0, 0.0}));
    for (int i = 0; i < 100; ++i)
        w.step();
    CHECK(w.disk(on_seg).position == Vec2{0.0, 1.0});
    CHECK(w.disk(on_box).position == Vec2{10.0, 1.0});
    CHECK(w.disk(on_seg).velocity == Vec2{0.0, 0.0});
    CHECK(w.contacts().empty());
}

TEST_CASE("disks whose filters do not collide pass through each other and through walls") {
    World w;
    DiskDef a = disk_def({0.0, 0.0}, {10.0, 0.0});
    a.filter = {0x1u, 0x1u};
    DiskDef b = disk_def({2.1, 0.0}, {-10.0, 0.0});
    b.filter = {0x2u, 0xFFFFFFFFu};  // b accepts a, but a's mask rejects b's layer
    const BodyId ia = w.create_disk(a);
    const BodyId ib = w.create_disk(b);
    SegmentDef wall = segment_def({3.0, -5.0}, {3.0, 5.0});
    wall.common.filter = {0x4u, 0xFFFFFFFFu};
    (void)w.create_segment(wall);
    for (int i = 0; i < 30; ++i)
        w.step();
    CHECK(w.disk(ia).velocity == Vec2{10.0, 0.0});
    CHECK(w.disk(ib).velocity == Vec2{-10.0, 0.0});
    CHECK(w.disk(ia).position.x == doctest::Approx(30.0 * 10.0 * kTick).epsilon(1e-9));
    CHECK(w.contacts().empty());
}
