// Overlap resolution (World::step phase 2): teleported or created-overlapping disks are pushed
// out of boxes, segments and each other along the proximity normals, deepest first.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::box_def;
using test::disk_def;
using test::segment_def;

namespace {
constexpr double kPos = 1e-9;  // positions after resolution: within the overlap tolerance
}

TEST_CASE("a disk teleported inside a box leaves through the nearest face") {
    // box [-1,1]^2, r 0.5 at (0.7, 0.1): nearest face +x (0.3 away) -> centre x = 1 + 0.5
    World w;
    (void)w.create_box(box_def({0.0, 0.0}, {1.0, 1.0}));
    const BodyId id = w.create_disk(disk_def({5.0, 5.0}, {}, 0.5));
    w.set_position(id, {0.7, 0.1});
    w.step();
    CHECK_VEC_NEAR(w.disk(id).position, (Vec2{1.5, 0.1}), kPos);
    CHECK(w.last_step_stats().overlaps_resolved >= 1u);
    CHECK(w.last_step_stats().overlap_passes >= 1u);
}

TEST_CASE(
    "a disk teleported to a box's centre leaves through +x, the first face of the tie "
    "order") {
    World w;
    (void)w.create_box(box_def({0.0, 0.0}, {1.0, 1.0}));
    const BodyId id = w.create_disk(disk_def({0.0, 0.0}, {}, 0.5));
    w.step();
    CHECK_VEC_NEAR(w.disk(id).position, (Vec2{1.5, 0.0}), kPos);
}

TEST_CASE("a disk inside an oriented box leaves along the box's own axis") {
    // axis (0.6,0.8), half (2,1); centre at local (1.5, 0) = (0.9, 1.2): leaves through local
    // +x, ending at local x = 2 + 0.5 -> world 2.5 * (0.6, 0.8) = (1.5, 2.0)
    World w;
    (void)w.create_box(box_def({0.0, 0.0}, {2.0, 1.0}, {0.6, 0.8}));
    const BodyId id = w.create_disk(disk_def({0.9, 1.2}, {}, 0.5));
    w.step();
    CHECK_VEC_NEAR(w.disk(id).position, (Vec2{1.5, 2.0}), kPos);
}

TEST_CASE("a disk centred exactly on a segment is pushed along the segment's left normal") {
    // (-5,0) -> (5,0): left normal +y; r 0.5 -> (0, 0.5). Reversed segment: -y.
    for (bool reversed : {false, true}) {
        CAPTURE(reversed);
        World w;
        (void)w.create_segment(reversed ? segment_def({5.0, 0.0}, {-5.0, 0.0})
                                        : segment_def({-5.0, 0.0}, {5.0, 0.0}));
        const BodyId id = w.create_disk(disk_def({0.0, 0.0}, {}, 0.5));
        w.step();
        CHECK_VEC_NEAR(w.disk(id).position, (Vec2{0.0, reversed ? -0.5 : 0.5}), kPos);
    }
}

TEST_CASE("overlapping equal disks are pushed apart symmetrically along the centre line") {
    // centres (0,0) and (1.2,1.6): distance 2, radii 1.5 + 1.5 -> depth 1, each moves 0.5
    // along (0.6, 0.8): (-0.3,-0.4) and (1.5, 2.0)
    World w;
    const BodyId a = w.create_disk(disk_def({0.0, 0.0}, {}, 1.5));
    const BodyId b = w.create_disk(disk_def({1.2, 1.6}, {}, 1.5));
    w.step();
    CHECK_VEC_NEAR(w.disk(a).position, (Vec2{-0.3, -0.4}), 1e-6);
    CHECK_VEC_NEAR(w.disk(b).position, (Vec2{1.5, 2.0}), 1e-6);
    CHECK(length(w.disk(b).position - w.disk(a).position) >= 3.0 - w.def().overlap_tolerance);
}

TEST_CASE("concentric disks are separated along the x axis") {
    World w;
    const BodyId a = w.create_disk(disk_def({3.0, 4.0}, {}, 1.0));
    const BodyId b = w.create_disk(disk_def({3.0, 4.0}, {}, 1.0));
    w.step();
    const Vec2 pa = w.disk(a).position;
    const Vec2 pb = w.disk(b).position;
    CHECK(pa.y == 4.0);
    CHECK(pb.y == 4.0);
    CHECK(std::abs(pa.x - pb.x) == doctest::Approx(2.0).epsilon(1e-6));
    CHECK((pa.x + pb.x) / 2.0 == doctest::Approx(3.0).epsilon(1e-12));
}

TEST_CASE("a disk teleported into a corner is pushed out of both walls") {
    // floor (0,0)-(10,0), wall (0,0)-(0,10), r 1 at (0.5, 0.5): 0.5 deep into each -> (1, 1)
    World w;
    (void)w.create_segment(segment_def({0.0, 0.0}, {10.0, 0.0}));
    (void)w.create_segment(segment_def({0.0, 0.0}, {0.0, 10.0}));
    const BodyId id = w.create_disk(disk_def({0.5, 0.5}, {}, 1.0));
    w.step();
    CHECK_VEC_NEAR(w.disk(id).position, (Vec2{1.0, 1.0}), kPos);
}

TEST_CASE("a stack of overlapping disks on a floor converges to within the overlap tolerance") {
    // Three unit disks stacked with 0.2 overlaps on a floor at y = 0. Each tick runs up to
    // overlap_iterations passes; the overlaps shrink every tick and end below the tolerance.
    World w;
    (void)w.create_box(box_def({0.0, -1.0}, {10.0, 1.0}));
    const BodyId d0 = w.create_disk(disk_def({0.0, 1.0}, {}, 1.0));
    const BodyId d1 = w.create_disk(disk_def({0.0, 2.8}, {}, 1.0));
    const BodyId d2 = w.create_disk(disk_def({0.0, 4.6}, {}, 1.0));
    auto worst = [&] {
        const double floor = 1.0 - w.disk(d0).position.y;
        const double low = 2.0 - (w.disk(d1).position.y - w.disk(d0).position.y);
        const double high = 2.0 - (w.disk(d2).position.y - w.disk(d1).position.y);
        return std::max(floor, std::max(low, high));
    };
    double previous = worst();  // 0.2
    for (int i = 0; i < 10; ++i) {
        w.step();
        const double now = worst();
        if (previous > w.def().overlap_tolerance) CHECK(now < previous);
        previous = now;
    }
    for (int i = 0; i < 30; ++i)
        w.step();
    CHECK(worst() <= w.def().overlap_tolerance + 1e-15);
    CHECK(w.disk(d0).position.x == 0.0);
    w.step();
    CHECK(w.last_step_stats().overlaps_resolved == 0u);
}

TEST_CASE("an overlap shallower than overlap_tolerance is left alone, a deeper one is resolved") {
    World w;
    (void)w.create_segment(segment_def({-10.0, 0.0}, {10.0, 0.0}));
    const double shallow = 1.0 - 0.5 * w.def().overlap_tolerance;
    const BodyId a = w.create_disk(disk_def({-5.0, shallow}, {}, 1.0));
    const BodyId b = w.create_disk(disk_def({5.0, 1.0 - 1e-6}, {}, 1.0));
    w.step();
    CHECK(w.disk(a).position == Vec2{-5.0, shallow});
    CHECK(w.disk(b).position.x == 5.0);
    CHECK(w.disk(b).position.y >= 1.0 - w.def().overlap_tolerance);
    CHECK(w.disk(b).position.y == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("a world without overlaps reports no overlap work") {
    World w;
    (void)w.create_segment(segment_def({-10.0, 0.0}, {10.0, 0.0}));
    (void)w.create_disk(disk_def({0.0, 5.0}, {1.0, 0.0}, 1.0));
    w.step();
    CHECK(w.last_step_stats().overlaps_resolved == 0u);
}

TEST_CASE("overlaps between shapes whose filters do not collide are not resolved") {
    World w;
    SegmentDef floor = segment_def({-10.0, 0.0}, {10.0, 0.0});
    floor.common.filter = {0x2u, 0x2u};
    (void)w.create_segment(floor);
    DiskDef a = disk_def({0.0, 0.5}, {}, 1.0);
    a.filter = {0x1u, 0x1u};
    DiskDef b = disk_def({1.0, 0.5}, {}, 1.0);
    b.filter = {0x4u, 0x4u};
    const BodyId ia = w.create_disk(a);
    const BodyId ib = w.create_disk(b);
    w.step();
    CHECK(w.disk(ia).position == Vec2{0.0, 0.5});
    CHECK(w.disk(ib).position == Vec2{1.0, 0.5});
}
