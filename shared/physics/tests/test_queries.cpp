// World queries: raycast, sweep_disk, overlap_disk and overlap_point against disks, boxes and
// segments, with layer masks and the documented tie order.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::box_def;
using test::disk_def;
using test::segment_def;

namespace {
constexpr double kEps = 1e-12;
constexpr std::uint32_t kDiskLayer = 0x1u;
constexpr std::uint32_t kBoxLayer = 0x2u;
constexpr std::uint32_t kSegmentLayer = 0x4u;

// Along the x axis: a disk at (10,0) r 1, a box at (20,0) half (1,1), a segment x = 30.
struct Scene {
    World w;
    BodyId disk;
    StaticId box;
    StaticId segment;
    ShapeRef disk_ref() const { return {ShapeKind::disk, disk.index, disk.generation}; }
    ShapeRef box_ref() const { return {ShapeKind::box, box.index, box.generation}; }
    ShapeRef segment_ref() const { return {ShapeKind::segment, segment.index, segment.generation}; }
};

Scene make_scene() {
    Scene s;
    DiskDef d = disk_def({10.0, 0.0}, {0.0, 0.0});
    d.filter.layer = kDiskLayer;
    s.disk = s.w.create_disk(d);
    BoxDef b = box_def({20.0, 0.0}, {1.0, 1.0});
    b.common.filter.layer = kBoxLayer;
    s.box = s.w.create_box(b);
    SegmentDef g = segment_def({30.0, -5.0}, {30.0, 5.0});
    g.common.filter.layer = kSegmentLayer;
    s.segment = s.w.create_segment(g);
    return s;
}
}  // namespace

TEST_CASE("raycast returns the nearest shape with fraction, point and normal") {
    const Scene s = make_scene();
    // ray (0,0) + f*(100,0) meets the disk's surface at x = 9: f = 0.09
    const auto hit = s.w.raycast({0.0, 0.0}, {100.0, 0.0});
    REQUIRE(hit.has_value());
    CHECK(hit->shape == s.disk_ref());
    CHECK(hit->fraction == doctest::Approx(0.09).epsilon(kEps));
    CHECK_VEC_NEAR(hit->point, (Vec2{9.0, 0.0}), kEps);
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
}

TEST_CASE("raycast masks select which layers can be hit") {
    const Scene s = make_scene();
    // without the disk layer: box face x = 19 -> f = 0.19
    const auto box = s.w.raycast({0.0, 0.0}, {100.0, 0.0}, kBoxLayer | kSegmentLayer);
    REQUIRE(box.has_value());
    CHECK(box->shape == s.box_ref());
    CHECK(box->fraction == doctest::Approx(0.19).epsilon(kEps));
    CHECK_VEC_NEAR(box->point, (Vec2{19.0, 0.0}), kEps);
    CHECK_VEC_NEAR(box->normal, (Vec2{-1.0, 0.0}), kEps);
    // only the segment: x = 30 -> f = 0.3
    const auto seg = s.w.raycast({0.0, 0.0}, {100.0, 0.0}, kSegmentLayer);
    REQUIRE(seg.has_value());
    CHECK(seg->shape == s.segment_ref());
    CHECK(seg->fraction == doctest::Approx(0.3).epsilon(kEps));
    CHECK_VEC_NEAR(seg->point, (Vec2{30.0, 0.0}), kEps);
    CHECK_VEC_NEAR(seg->normal, (Vec2{-1.0, 0.0}), kEps);
    // nothing selected
    CHECK_FALSE(s.w.raycast({0.0, 0.0}, {100.0, 0.0}, 0u).has_value());
}

TEST_CASE("raycast misses shapes beyond the translation or off its line") {
    const Scene s = make_scene();
    CHECK_FALSE(s.w.raycast({0.0, 0.0}, {8.9, 0.0}).has_value());
    CHECK_FALSE(s.w.raycast({0.0, 6.0}, {100.0, 0.0}).has_value());  // above everything
    CHECK_FALSE(s.w.raycast({0.0, 0.0}, {-100.0, 0.0}).has_value());
    // exactly reaching the disk surface counts: fraction 1
    const auto edge = s.w.raycast({0.0, 0.0}, {9.0, 0.0});
    REQUIRE(edge.has_value());
    CHECK(edge->fraction == doctest::Approx(1.0).epsilon(kEps));
}

TEST_CASE("raycast against a segment from the far side and against an oriented box") {
    const Scene s = make_scene();
    // from x = 40 towards -x, only segments: hits x = 30 at f = 10/100, normal +x
    const auto back = s.w.raycast({40.0, 1.0}, {-100.0, 0.0}, kSegmentLayer);
    REQUIRE(back.has_value());
    CHECK(back->fraction == doctest::Approx(0.1).epsilon(kEps));
    CHECK_VEC_NEAR(back->normal, (Vec2{1.0, 0.0}), kEps);

    // oriented box at (100,100), axis (0.6,0.8), half (2,1): ray from centre + 10 ax along
    // -10 ax reaches local x = 2 at f = 0.8; point = centre + 2 ax = (101.2, 101.6)
    World w;
    const StaticId ob = w.create_box(box_def({100.0, 100.0}, {2.0, 1.0}, {0.6, 0.8}));
    const auto hit = w.raycast({106.0, 108.0}, {-6.0, -8.0});
    REQUIRE(hit.has_value());
    CHECK(hit->shape == ShapeRef{ShapeKind::box, ob.index, ob.generation});
    CHECK(hit->fraction == doctest::Approx(0.8).epsilon(kEps));
    CHECK_VEC_NEAR(hit->point, (Vec2{101.2, 101.6}), 1e-11);
    CHECK_VEC_NEAR(hit->normal, (Vec2{0.6, 0.8}), kEps);
}

TEST_CASE("sweep_disk reports where a moving disk first touches a shape") {
    const Scene s = make_scene();
    // r 1 along +x: touches the disk at centre x = 8 -> f = 0.08, point (9,0)
    const auto hit = s.w.sweep_disk({0.0, 0.0}, 1.0, {100.0, 0.0});
    REQUIRE(hit.has_value());
    CHECK(hit->shape == s.disk_ref());
    CHECK(hit->fraction == doctest::Approx(0.08).epsilon(kEps));
    CHECK_VEC_NEAR(hit->point, (Vec2{9.0, 0.0}), kEps);
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
    // at y = 2.5 it passes the disk (2.5 > 2) and the box (2.5 > 1 + 1) and hits the segment
    // at centre x = 29: f = 0.29, point (30, 2.5)
    const auto seg = s.w.sweep_disk({0.0, 2.5}, 1.0, {100.0, 0.0});
    REQUIRE(seg.has_value());
    CHECK(seg->shape == s.segment_ref());
    CHECK(seg->fraction == doctest::Approx(0.29).epsilon(kEps));
    CHECK_VEC_NEAR(seg->point, (Vec2{30.0, 2.5}), kEps);
}

TEST_CASE("sweep_disk hits a box corner as a circle") {
    const Scene s = make_scene();
    // path y = 1.6, r 1, only the box: corner (19,1): (x - 19)^2 + 0.36 = 1 -> x = 18.2
    // -> f = 0.182, normal (-0.8, 0.6), point = the corner (19, 1)
    const auto hit = s.w.sweep_disk({0.0, 1.6}, 1.0, {100.0, 0.0}, kBoxLayer);
    REQUIRE(hit.has_value());
    CHECK(hit->shape == s.box_ref());
    CHECK(hit->fraction == doctest::Approx(0.182).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-0.8, 0.6}), kEps);
    CHECK_VEC_NEAR(hit->point, (Vec2{19.0, 1.0}), kEps);
}

TEST_CASE("sweep_disk of radius 0 agrees with raycast") {
    const Scene s = make_scene();
    for (double y : {0.0, 0.5, 0.99, 3.0}) {
        CAPTURE(y);
        const auto a = s.w.sweep_disk({0.0, y}, 0.0, {100.0, 0.0});
        const auto b = s.w.raycast({0.0, y}, {100.0, 0.0});
        REQUIRE(a.has_value() == b.has_value());
        if (!a) continue;
        CHECK(a->shape == b->shape);
        CHECK(a->fraction == doctest::Approx(b->fraction).epsilon(kEps));
        CHECK_VEC_NEAR(a->normal, b->normal, kEps);
    }
}

TEST_CASE("queries do not see destroyed shapes") {
    Scene s = make_scene();
    s.w.destroy(s.disk);
    s.w.destroy(s.box);
    const auto hit = s.w.raycast({0.0, 0.0}, {100.0, 0.0});
    REQUIRE(hit.has_value());
    CHECK(hit->shape == s.segment_ref());
    CHECK(s.w.overlap_point({10.0, 0.0}).empty());
    CHECK(s.w.overlap_disk({20.0, 0.0}, 1.0).empty());
}

TEST_CASE("overlap_disk lists every overlapping shape, touching included, in ShapeRef order") {
    const Scene s = make_scene();
    // circle (15,0) r 5: disk centre 5 away (< 5 + 1), box closest point (19,0) 4 away,
    // segment 15 away
    const auto both = s.w.overlap_disk({15.0, 0.0}, 5.0);
    REQUIRE(both.size() == 2u);
    CHECK(both[0] == s.disk_ref());
    CHECK(both[1] == s.box_ref());
    // circle (25,0) r 4: box face x = 21 exactly 4 away (touching counts), segment 5 away
    const auto touching = s.w.overlap_disk({25.0, 0.0}, 4.0);
    REQUIRE(touching.size() == 1u);
    CHECK(touching[0] == s.box_ref());
    // touching the disk: centre (13,0) r 2 -> distance 3 = 2 + 1
    const auto disk_touch = s.w.overlap_disk({13.0, 0.0}, 2.0);
    REQUIRE(disk_touch.size() == 1u);
    CHECK(disk_touch[0] == s.disk_ref());
    // just apart
    CHECK(s.w.overlap_disk({13.0 + 1e-9, 0.0}, 2.0).empty());
    // everything, then masked
    const auto all = s.w.overlap_disk({20.0, 0.0}, 10.0);
    REQUIRE(all.size() == 3u);
    CHECK(all[0] == s.disk_ref());
    CHECK(all[1] == s.box_ref());
    CHECK(all[2] == s.segment_ref());
    const auto masked = s.w.overlap_disk({20.0, 0.0}, 10.0, kDiskLayer | kSegmentLayer);
    REQUIRE(masked.size() == 2u);
    CHECK(masked[0] == s.disk_ref());
    CHECK(masked[1] == s.segment_ref());
}

TEST_CASE("overlap_disk finds a circle inside a box and sorts many disks by index") {
    World w;
    const StaticId big = w.create_box(box_def({0.0, 0.0}, {50.0, 50.0}));
    std::vector<BodyId> ids;
    for (int i = 0; i < 10; ++i) {
        ids.push_back(w.create_disk(disk_def({-20.0 + 4.0 * i, 0.0}, {0.0, 0.0})));
    }
    // a small circle deep inside the box and clear of the disks
    const auto inside = w.overlap_disk({0.0, 30.0}, 1.0);
    REQUIRE(inside.size() == 1u);
    CHECK(inside[0] == ShapeRef{ShapeKind::box, big.index, big.generation});
    // a wide circle over all the disks: disks first by index, then the box
    const auto all = w.overlap_disk({0.0, 0.0}, 30.0);
    REQUIRE(all.size() == 11u);
    for (std::size_t i = 0; i + 1 < all.size(); ++i)
        CHECK(all[i] < all[i + 1]);
    CHECK(all.back().kind == ShapeKind::box);
}

TEST_CASE("overlap_point finds the shapes containing or touching a point") {
    const Scene s = make_scene();
    auto one = [&](Vec2 p) { return s.w.overlap_point(p); };
    REQUIRE(one({10.5, 0.5}).size() == 1u);
    CHECK(one({10.5, 0.5})[0] == s.disk_ref());
    REQUIRE(one({20.5, -0.5}).size() == 1u);
    CHECK(one({20.5, -0.5})[0] == s.box_ref());
    // on the boundaries: box face, disk surface, the segment itself
    CHECK(one({21.0, 0.0}).size() == 1u);
    CHECK(one({11.0, 0.0}).size() == 1u);
    REQUIRE(one({30.0, 1.0}).size() == 1u);
    CHECK(one({30.0, 1.0})[0] == s.segment_ref());
    CHECK(one({15.0, 0.0}).empty());
    CHECK(one({30.0 + 1e-9, 1.0}).empty());
    CHECK(s.w.overlap_point({10.5, 0.5}, kBoxLayer).empty());
}

TEST_CASE("equally near raycast hits go to the disk before the static") {
    // disk (10,0) r 1 and a box whose left face is x = 9: both hit at f = 0.09
    World w;
    const StaticId box = w.create_box(box_def({10.0, 0.0}, {1.0, 3.0}));
    const BodyId disk = w.create_disk(disk_def({10.0, 0.0}, {0.0, 0.0}));
    const auto hit = w.raycast({0.0, 0.0}, {100.0, 0.0});
    REQUIRE(hit.has_value());
    CHECK(hit->shape == ShapeRef{ShapeKind::disk, disk.index, disk.generation});
    CHECK(hit->fraction == doctest::Approx(0.09).epsilon(kEps));
    (void)box;
}

TEST_CASE("equally near raycast hits on two disks go to the lower index") {
    // disks r 1.25 at (10, +1) and (10, -1): the ray y = 0 meets both at (x - 10)^2 + 1 = 1.5625
    // -> x = 9.25, f = 0.0925; the normal tells which one: (-0.6, -0.8) for the upper disk
    for (bool upper_first : {true, false}) {
        CAPTURE(upper_first);
        World w;
        const double first_y = upper_first ? 1.0 : -1.0;
        const BodyId first = w.create_disk(disk_def({10.0, first_y}, {0.0, 0.0}, 1.25));
        (void)w.create_disk(disk_def({10.0, -first_y}, {0.0, 0.0}, 1.25));
        const auto hit = w.raycast({0.0, 0.0}, {100.0, 0.0});
        REQUIRE(hit.has_value());
        CHECK(hit->shape == ShapeRef{ShapeKind::disk, first.index, first.generation});
        CHECK(hit->fraction == doctest::Approx(0.0925).epsilon(kEps));
        CHECK_VEC_NEAR(hit->normal, (Vec2{-0.6, -0.8 * first_y}), kEps);
    }
}

TEST_CASE("equally near sweep hits on two boxes go to the lower index") {
    // two identical boxes stacked so their left faces share x = 19 and the swept disk touches
    // both at f = 0.18 (centre x = 18, r 1): box A y in [0,2], box B y in [-2,0]; path y = 0.
    for (bool a_first : {true, false}) {
        CAPTURE(a_first);
        World w;
        const BoxDef a = box_def({20.0, 1.0}, {1.0, 1.0});
        const BoxDef b = box_def({20.0, -1.0}, {1.0, 1.0});
        const StaticId first = w.create_box(a_first ? a : b);
        (void)w.create_box(a_first ? b : a);
        const auto hit = w.sweep_disk({0.0, 0.0}, 1.0, {100.0, 0.0});
        REQUIRE(hit.has_value());
        CHECK(hit->shape == ShapeRef{ShapeKind::box, first.index, first.generation});
        CHECK(hit->fraction == doctest::Approx(0.18).epsilon(kEps));
        CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
    }
}
