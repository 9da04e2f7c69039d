// Geometry primitives (geometry.hpp, vec2.hpp) and the small helpers of defs.hpp.
#include "carom/physics/geometry.hpp"

#include <doctest/doctest.h>

#include "carom/physics/defs.hpp"
#include "carom/physics/vec2.hpp"
#include "test_support.hpp"

using namespace carom::physics;

TEST_CASE("perp rotates a vector 90 degrees counter-clockwise") {
    CHECK(perp(Vec2{1.0, 0.0}) == Vec2{0.0, 1.0});
    CHECK(perp(Vec2{0.0, 1.0}) == Vec2{-1.0, 0.0});
    CHECK(perp(Vec2{3.0, 4.0}) == Vec2{-4.0, 3.0});
}

TEST_CASE("dot and cross of exact small vectors") {
    // (3,4).(−4,3) = −12 + 12 = 0; (1,0)x(0,1) = 1; (0,1)x(1,0) = −1
    CHECK(dot(Vec2{3.0, 4.0}, Vec2{-4.0, 3.0}) == 0.0);
    CHECK(cross(Vec2{1.0, 0.0}, Vec2{0.0, 1.0}) == 1.0);
    CHECK(cross(Vec2{0.0, 1.0}, Vec2{1.0, 0.0}) == -1.0);
    CHECK(length(Vec2{3.0, 4.0}) == 5.0);
}

TEST_CASE("normalize_or returns the fallback for a zero vector and a unit vector otherwise") {
    CHECK(normalize_or(Vec2{0.0, 0.0}, Vec2{1.0, 0.0}) == Vec2{1.0, 0.0});
    // (3,4)/5 = (0.6, 0.8)
    CHECK_VEC_NEAR(normalize_or(Vec2{3.0, 4.0}, Vec2{1.0, 0.0}), (Vec2{0.6, 0.8}), 1e-15);
}

TEST_CASE("segment bounds are the min and max of its end points") {
    const Aabb b = bounds_of(Segment{{3.0, -1.0}, {-2.0, 4.0}});
    CHECK(b.min == Vec2{-2.0, -1.0});
    CHECK(b.max == Vec2{3.0, 4.0});
}

TEST_CASE("bounds of an axis-aligned box are centre plus and minus the half extents") {
    const Aabb b = bounds_of(Box{{10.0, 20.0}, {2.0, 1.0}, {1.0, 0.0}});
    CHECK(b.min == Vec2{8.0, 19.0});
    CHECK(b.max == Vec2{12.0, 21.0});
}

TEST_CASE("bounds of an oriented box enclose its rotated corners exactly") {
    // axis (0.6, 0.8), perp (−0.8, 0.6), half extents (2, 1):
    // ex = 0.6*2 + 0.8*1 = 2.0, ey = 0.8*2 + 0.6*1 = 2.2
    // corners: ±2*(0.6,0.8) ± 1*(−0.8,0.6) = (±1.2 ∓ 0.8, ±1.6 ± 0.6) ->
    // x in {0.4, 2.0, -2.0, -0.4}, y in {2.2, 1.0, -1.0, -2.2}
    const Aabb b = bounds_of(Box{{0.0, 0.0}, {2.0, 1.0}, {0.6, 0.8}});
    CHECK(b.min.x == doctest::Approx(-2.0).epsilon(1e-15));
    CHECK(b.max.x == doctest::Approx(2.0).epsilon(1e-15));
    CHECK(b.min.y == doctest::Approx(-2.2).epsilon(1e-15));
    CHECK(b.max.y == doctest::Approx(2.2).epsilon(1e-15));
}

TEST_CASE("closest point of a segment projects inside and clamps to the end points") {
    const Segment s{{0.0, 0.0}, {10.0, 0.0}};
    CHECK(closest_point(s, Vec2{3.0, 5.0}) == Vec2{3.0, 0.0});
    CHECK(closest_point(s, Vec2{-4.0, 2.0}) == Vec2{0.0, 0.0});
    CHECK(closest_point(s, Vec2{14.0, -2.0}) == Vec2{10.0, 0.0});
    // On the segment: itself.
    CHECK(closest_point(s, Vec2{7.0, 0.0}) == Vec2{7.0, 0.0});
}

TEST_CASE("closest point of an oblique segment is the orthogonal projection") {
    // Segment (0,0)-(3,4), direction (0.6,0.8). p = (−0.8,0.6)*2 + (1.5,2) = (−0.1, 3.2)
    // projects to the midpoint (1.5, 2).
    const Segment s{{0.0, 0.0}, {3.0, 4.0}};
    CHECK_VEC_NEAR(closest_point(s, Vec2{-0.1, 3.2}), (Vec2{1.5, 2.0}), 1e-14);
}

TEST_CASE("closest point of a zero-length segment is that point") {
    const Segment s{{2.0, 3.0}, {2.0, 3.0}};
    CHECK(closest_point(s, Vec2{7.0, -1.0}) == Vec2{2.0, 3.0});
}

TEST_CASE("closest point of a box clamps to faces and corners and is the point itself inside") {
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    CHECK(closest_point(b, Vec2{5.0, 0.5}) == Vec2{2.0, 0.5});    // right face
    CHECK(closest_point(b, Vec2{0.5, -7.0}) == Vec2{0.5, -1.0});  // bottom face
    CHECK(closest_point(b, Vec2{5.0, 5.0}) == Vec2{2.0, 1.0});    // corner
    CHECK(closest_point(b, Vec2{-1.0, 0.5}) == Vec2{-1.0, 0.5});  // inside: solid box
}

TEST_CASE("closest point of an oriented box works in the box's frame") {
    // axis (0.6,0.8), perp (−0.8,0.6), half (2,1). Local (5, 0.5) -> clamps to local (2, 0.5)
    // world = 2*(0.6,0.8) + 0.5*(−0.8,0.6) = (1.2−0.4, 1.6+0.3) = (0.8, 1.9)
    // Local (5,5) -> corner local (2,1) = (1.2−0.8, 1.6+0.6) = (0.4, 2.2)
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {0.6, 0.8}};
    const Vec2 ax{0.6, 0.8};
    const Vec2 ay{-0.8, 0.6};
    CHECK_VEC_NEAR(closest_point(b, ax * 5.0 + ay * 0.5), (Vec2{0.8, 1.9}), 1e-14);
    CHECK_VEC_NEAR(closest_point(b, ax * 5.0 + ay * 5.0), (Vec2{0.4, 2.2}), 1e-14);
}

TEST_CASE("aabb overlap counts touching edges and rejects separated boxes") {
    const Aabb a{{0.0, 0.0}, {1.0, 1.0}};
    CHECK(overlaps(a, Aabb{{1.0, 0.0}, {2.0, 1.0}}));
    CHECK(overlaps(a, Aabb{{0.5, 0.5}, {0.6, 0.6}}));
    CHECK_FALSE(overlaps(a, Aabb{{1.0 + 1e-12, 0.0}, {2.0, 1.0}}));
    CHECK_FALSE(overlaps(a, Aabb{{0.0, -2.0}, {1.0, -0.5}}));
}

TEST_CASE("two filters collide only when each layer is in the other's mask") {
    const Filter a{0b01u, 0b10u};
    const Filter b{0b10u, 0b01u};
    const Filter c{0b10u, 0b10u};
    CHECK(collides(a, b));
    CHECK(collides(b, a));
    CHECK_FALSE(collides(a, c));  // a's layer 01 is not in c's mask 10
    CHECK_FALSE(collides(c, a));
    CHECK(collides(Filter{}, Filter{}));
}

TEST_CASE("default disk and world definitions and simple shapes are valid") {
    CHECK(validate(DiskDef{}).ok());
    CHECK(validate(test::box_def({0.0, 0.0}, {1.0, 1.0})).ok());
    CHECK(validate(SegmentDef{{{0.0, 0.0}, {1.0, 0.0}}, {}}).ok());
    CHECK(validate(WorldDef{}).ok());
}
