// World creation (world.hpp, defs.hpp): validation errors, handles, destroy and stale handles.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "carom/physics/defs.hpp"
#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::box_def;
using test::disk_def;
using test::segment_def;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

DiskDef good_disk() {
    return disk_def({1.0, 2.0}, {3.0, 4.0}, 0.5, 2.0);
}
BoxDef good_box() {
    return box_def({10.0, 0.0}, {1.0, 2.0});
}
SegmentDef good_segment() {
    return segment_def({0.0, -10.0}, {5.0, -10.0});
}

// The message of the std::invalid_argument thrown by f, or "<none>" / "<other>".
template <class F>
std::string invalid_argument_message(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    } catch (...) {
        return "<other exception>";
    }
    return "<no exception>";
}
}  // namespace

#define CHECK_INVALID(expr, field)                                                \
    do {                                                                          \
        const std::string msg_ = invalid_argument_message([&] { (void)(expr); }); \
        INFO("expression: " #expr ", message: " << msg_);                         \
        CHECK(msg_ != "<no exception>");                                          \
        CHECK(msg_ != "<other exception>");                                       \
        CHECK(msg_.find(field) != std::string::npos);                             \
    } while (false)

TEST_CASE("a created disk reports exactly the state it was defined with") {
    World w;
    DiskDef def = good_disk();
    def.material = {0.25, 0.75};
    def.filter = {0x4u, 0x6u};
    def.user_data = 0xDEADBEEFCAFEull;
    const BodyId id = w.create_disk(def);
    REQUIRE(w.valid(id));
    const DiskState& d = w.disk(id);
    CHECK(d.position == Vec2{1.0, 2.0});
    CHECK(d.velocity == Vec2{3.0, 4.0});
    CHECK(d.radius == 0.5);
    CHECK(d.inverse_mass == 0.5);  // 1 / 2
    CHECK(d.material.restitution == 0.25);
    CHECK(d.material.friction == 0.75);
    CHECK(d.filter.layer == 0x4u);
    CHECK(d.filter.mask == 0x6u);
    CHECK(d.user_data == 0xDEADBEEFCAFEull);
}

TEST_CASE("a disk of infinite mass has inverse mass 0") {
    World w;
    DiskDef def = good_disk();
    def.mass = kInfiniteMass;
    const BodyId id = w.create_disk(def);
    CHECK(w.disk(id).inverse_mass == 0.0);
}

TEST_CASE("created statics report their definitions and boxes get a normalised axis") {
    World w;
    BoxDef bd = box_def({1.0, 2.0}, {3.0, 0.5}, {3.0, 4.0});
    bd.common.response = WallResponse::slide;
    bd.common.material = {0.5, 0.1};
    bd.common.user_data = 7;
    const StaticId box = w.create_box(bd);
    const StaticId seg = w.create_segment(good_segment());
    REQUIRE(w.valid(box));
    REQUIRE(w.valid(seg));
    const StaticState& b = w.static_shape(box);
    CHECK(b.kind == ShapeKind::box);
    CHECK(b.box.center == Vec2{1.0, 2.0});
    CHECK(b.box.half_extents == Vec2{3.0, 0.5});
    // (3,4)/5
    CHECK_VEC_NEAR(b.box.axis, (Vec2{0.6, 0.8}), 1e-15);
    CHECK(b.common.response == WallResponse::slide);
    CHECK(b.common.material.restitution == 0.5);
    CHECK(b.common.material.friction == 0.1);
    CHECK(b.common.user_data == 7u);
    const StaticState& s = w.static_shape(seg);
    CHECK(s.kind == ShapeKind::segment);
    CHECK(s.segment.a == Vec2{0.0, -10.0});
    CHECK(s.segment.b == Vec2{5.0, -10.0});
}

TEST_CASE("disks() and statics() list live shapes in index order") {
    World w;
    const BodyId a = w.create_disk(good_disk());
    DiskDef other = good_disk();
    other.position = {10.0, 10.0};
    const BodyId b = w.create_disk(other);
    other.position = {20.0, 10.0};
    const BodyId c = w.create_disk(other);
    CHECK(a != b);
    CHECK(b != c);
    const auto ds = w.disks();
    REQUIRE(ds.size() == 3u);
    CHECK(ds[0].index < ds[1].index);
    CHECK(ds[1].index < ds[2].index);
    w.destroy(b);
    const auto after = w.disks();
    REQUIRE(after.size() == 2u);
    CHECK(after[0] == a);
    CHECK(after[1] == c);

    const StaticId s0 = w.create_box(good_box());
    const StaticId s1 = w.create_segment(good_segment());
    const auto ss = w.statics();
    REQUIRE(ss.size() == 2u);
    CHECK(ss[0] == s0);
    CHECK(ss[1] == s1);
}

TEST_CASE("a destroyed disk's handle is stale: valid() is false and access throws") {
    World w;
    const BodyId id = w.create_disk(good_disk());
    w.destroy(id);
    CHECK_FALSE(w.valid(id));
    CHECK_THROWS_AS((void)w.disk(id), std::invalid_argument);
    CHECK_THROWS_AS(w.destroy(id), std::invalid_argument);
    CHECK_THROWS_AS(w.set_position(id, {0.0, 0.0}), std::invalid_argument);
    CHECK_THROWS_AS(w.set_velocity(id, {0.0, 0.0}), std::invalid_argument);
    CHECK_THROWS_AS(w.apply_impulse(id, {1.0, 0.0}), std::invalid_argument);
    CHECK(w.disks().empty());
}

TEST_CASE("a slot reused after destroy gets a new generation and the old handle stays stale") {
    World w;
    const BodyId old_id = w.create_disk(good_disk());
    w.destroy(old_id);
    const BodyId new_id = w.create_disk(good_disk());
    CHECK(new_id != old_id);
    CHECK(w.valid(new_id));
    CHECK_FALSE(w.valid(old_id));
    CHECK_THROWS_AS((void)w.disk(old_id), std::invalid_argument);
    if (new_id.index == old_id.index) CHECK(new_id.generation != old_id.generation);
}

TEST_CASE("a destroyed static's handle is stale") {
    World w;
    const StaticId box = w.create_box(good_box());
    const StaticId seg = w.create_segment(good_segment());
    w.destroy(box);
    CHECK_FALSE(w.valid(box));
    CHECK(w.valid(seg));
    CHECK_THROWS_AS((void)w.static_shape(box), std::invalid_argument);
    CHECK_THROWS_AS(w.destroy(box), std::invalid_argument);
    const StaticId again = w.create_box(good_box());
    CHECK(w.valid(again));
    CHECK_FALSE(w.valid(box));
    REQUIRE(w.statics().size() == 2u);
}

TEST_CASE("default-constructed and out-of-range handles are invalid") {
    World w;
    (void)w.create_disk(good_disk());
    (void)w.create_box(good_box());
    CHECK_FALSE(w.valid(BodyId{}));
    CHECK_FALSE(w.valid(StaticId{}));
    CHECK_FALSE(w.valid(BodyId{57, 0}));
    CHECK_THROWS_AS((void)w.disk(BodyId{}), std::invalid_argument);
    CHECK_THROWS_AS((void)w.static_shape(StaticId{}), std::invalid_argument);
    CHECK_THROWS_AS(w.destroy(BodyId{}), std::invalid_argument);
    CHECK_THROWS_AS(w.destroy(StaticId{}), std::invalid_argument);
}

TEST_CASE("disk creation rejects non-finite position and velocity, naming the field") {
    World w;
    for (double bad : {kNaN, kInf, -kInf}) {
        CAPTURE(bad);
        DiskDef d = good_disk();
        d.position.x = bad;
        CHECK_INVALID(w.create_disk(d), "position");
        d = good_disk();
        d.position.y = bad;
        CHECK_INVALID(w.create_disk(d), "position");
        d = good_disk();
        d.velocity.x = bad;
        CHECK_INVALID(w.create_disk(d), "velocity");
        d = good_disk();
        d.velocity.y = bad;
        CHECK_INVALID(w.create_disk(d), "velocity");
    }
    CHECK(w.disks().empty());  // nothing half-created
}

TEST_CASE("disk creation rejects a radius that is not positive and finite") {
    World w;
    for (double bad : {0.0, -0.0, -1.0, kNaN, kInf}) {
        CAPTURE(bad);
        DiskDef d = good_disk();
        d.radius = bad;
        CHECK_INVALID(w.create_disk(d), "radius");
        CHECK_FALSE(validate(d).ok());
    }
    CHECK(w.disks().empty());
}

TEST_CASE("disk creation rejects zero, negative and NaN mass but accepts kInfiniteMass") {
    World w;
    for (double bad : {0.0, -1.0, -kInf, kNaN}) {
        CAPTURE(bad);
        DiskDef d = good_disk();
        d.mass = bad;
        CHECK_INVALID(w.create_disk(d), "mass");
    }
    DiskDef d = good_disk();
    d.mass = kInfiniteMass;
    CHECK(validate(d).ok());
    CHECK_NOTHROW((void)w.create_disk(d));
}

TEST_CASE("disk creation rejects restitution outside 0..1 and negative or NaN friction") {
    World w;
    for (double bad : {-0.1, 1.1, kNaN}) {
        CAPTURE(bad);
        DiskDef d = good_disk();
        d.material.restitution = bad;
        CHECK_INVALID(w.create_disk(d), "restitution");
    }
    for (double bad : {-0.1, kNaN, -kInf}) {
        CAPTURE(bad);
        DiskDef d = good_disk();
        d.material.friction = bad;
        CHECK_INVALID(w.create_disk(d), "friction");
    }
    // the bounds themselves are valid
    DiskDef d = good_disk();
    d.material = {0.0, 0.0};
    CHECK(validate(d).ok());
    d.material = {1.0, 2.0};
    CHECK(validate(d).ok());
    CHECK(w.disks().empty());
}

TEST_CASE("box creation rejects negative half extents, a zero axis and non-finite fields") {
    World w;
    BoxDef b = good_box();
    b.box.half_extents = {-1.0, 2.0};
    CHECK_INVALID(w.create_box(b), "half_extents");
    b = good_box();
    b.box.half_extents = {1.0, -2.0};
    CHECK_INVALID(w.create_box(b), "half_extents");
    b = good_box();
    b.box.half_extents = {kNaN, 1.0};
    CHECK_INVALID(w.create_box(b), "half_extents");
    b = good_box();
    b.box.axis = {0.0, 0.0};
    CHECK_INVALID(w.create_box(b), "axis");
    b = good_box();
    b.box.axis = {kNaN, 1.0};
    CHECK_INVALID(w.create_box(b), "axis");
    b = good_box();
    b.box.center = {kInf, 0.0};
    CHECK_INVALID(w.create_box(b), "center");
    b = good_box();
    b.common.material.restitution = 1.5;
    CHECK_INVALID(w.create_box(b), "restitution");
    b = good_box();
    b.common.material.friction = -1.0;
    CHECK_INVALID(w.create_box(b), "friction");
    CHECK(w.statics().empty());
}

TEST_CASE("segment creation rejects a zero-length or non-finite segment") {
    World w;
    CHECK_INVALID(w.create_segment(segment_def({1.0, 1.0}, {1.0, 1.0})), "segment");
    CHECK_FALSE(validate(segment_def({1.0, 1.0}, {1.0, 1.0})).ok());
    CHECK_INVALID(w.create_segment(segment_def({kNaN, 1.0}, {1.0, 1.0})), "segment");
    CHECK_INVALID(w.create_segment(segment_def({0.0, 1.0}, {1.0, kInf})), "segment");
    SegmentDef s = good_segment();
    s.common.material.restitution = -0.5;
    CHECK_INVALID(w.create_segment(s), "restitution");
    CHECK(w.statics().empty());
}

TEST_CASE("world construction rejects a tick that is not positive and finite") {
    for (double bad : {0.0, -1.0 / 60.0, kNaN, kInf}) {
        CAPTURE(bad);
        WorldDef def;
        def.tick_seconds = bad;
        CHECK_FALSE(validate(def).ok());
        CHECK_INVALID(World{def}, "tick_seconds");
    }
}

TEST_CASE("setters validate like creation does") {
    World w;
    const BodyId id = w.create_disk(good_disk());
    CHECK_INVALID(w.set_position(id, {kNaN, 0.0}), "position");
    CHECK_INVALID(w.set_velocity(id, {0.0, kInf}), "velocity");
    // a refused set leaves the state untouched
    CHECK(w.disk(id).position == Vec2{1.0, 2.0});
    CHECK(w.disk(id).velocity == Vec2{3.0, 4.0});
    w.set_position(id, {-5.0, 6.0});
    w.set_velocity(id, {7.0, -8.0});
    CHECK(w.disk(id).position == Vec2{-5.0, 6.0});
    CHECK(w.disk(id).velocity == Vec2{7.0, -8.0});
}

TEST_CASE("apply_impulse changes velocity by impulse times inverse mass") {
    World w;
    const BodyId id = w.create_disk(good_disk());  // mass 2, velocity (3,4)
    w.apply_impulse(id, {4.0, -2.0});              // dv = (2, -1)
    CHECK(w.disk(id).velocity == Vec2{5.0, 3.0});
    DiskDef heavy = good_disk();
    heavy.position = {50.0, 50.0};
    heavy.mass = kInfiniteMass;
    const BodyId wall = w.create_disk(heavy);
    w.apply_impulse(wall, {1000.0, 1000.0});
    CHECK(w.disk(wall).velocity == Vec2{3.0, 4.0});
}

TEST_CASE("tick() counts steps and def() returns the definition") {
    WorldDef def;
    def.tick_seconds = 0.01;
    def.overlap_iterations = 3;
    World w(def);
    CHECK(w.tick() == 0u);
    CHECK(w.def().tick_seconds == 0.01);
    CHECK(w.def().overlap_iterations == 3u);
    w.step();
    w.step();
    CHECK(w.tick() == 2u);
}

TEST_CASE("a free disk moves by velocity times tick") {
    WorldDef def;
    def.tick_seconds = 0.5;
    World w(def);
    const BodyId id = w.create_disk(disk_def({1.0, 2.0}, {4.0, -2.0}));
    w.step();
    // (1,2) + 0.5*(4,-2) = (3, 1)
    CHECK(w.disk(id).position == Vec2{3.0, 1.0});
    CHECK(w.disk(id).velocity == Vec2{4.0, -2.0});
    CHECK(w.contacts().empty());
}

TEST_CASE("ShapeRef sorts disks before statics, then by index") {
    const ShapeRef disk5{ShapeKind::disk, 5, 0};
    const ShapeRef box0{ShapeKind::box, 0, 0};
    const ShapeRef box1{ShapeKind::box, 1, 0};
    CHECK(disk5 < box0);
    CHECK(box0 < box1);
    CHECK(disk5.is_disk());
    CHECK(disk5.body() == BodyId{5, 0});
    CHECK(box1.static_shape() == StaticId{1, 0});
}

TEST_CASE("moving a world keeps its shapes and handles") {
    World w;
    const BodyId id = w.create_disk(good_disk());
    World moved(std::move(w));
    REQUIRE(moved.valid(id));
    CHECK(moved.disk(id).position == Vec2{1.0, 2.0});
    World assigned;
    assigned = std::move(moved);
    REQUIRE(assigned.valid(id));
    CHECK(assigned.disk(id).velocity == Vec2{3.0, 4.0});
}
