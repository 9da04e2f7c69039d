// Static proximity (proximity.hpp): separation, normal and closest surface point.
#include "carom/physics/proximity.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "test_support.hpp"

using namespace carom::physics;

namespace {
constexpr double kEps = 1e-12;
const Vec2 kAx{0.6, 0.8};
const Vec2 kAy{-0.8, 0.6};  // perp(kAx)
}  // namespace

// ---------------------------------------------------------------- disk–disk

TEST_CASE("separated disks: surface gap, unit normal towards the disk, point on the other") {
    // centres (0,0) and (3,4): distance 5, radii 1 + 1 -> separation 3.
    // normal (0,0)-(3,4) normalised = (-0.6,-0.8); point = (3,4) + 1*(-0.6,-0.8) = (2.4, 3.2)
    const Proximity p = proximity_disk_disk({0.0, 0.0}, 1.0, {3.0, 4.0}, 1.0);
    CHECK(p.separation == doctest::Approx(3.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{-0.6, -0.8}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{2.4, 3.2}), kEps);
}

TEST_CASE("overlapping disks have negative separation equal to minus the depth") {
    // centres 1 apart, radii 1 + 1 -> separation 1 - 2 = -1; normal -x; point (1,0) - (1,0) = (0,0)
    const Proximity p = proximity_disk_disk({0.0, 0.0}, 1.0, {1.0, 0.0}, 1.0);
    CHECK(p.separation == doctest::Approx(-1.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{-1.0, 0.0}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{0.0, 0.0}), kEps);
}

TEST_CASE("touching disks have zero separation") {
    // radii 0.5 + 1.5 = 2, centres 2 apart
    const Proximity p = proximity_disk_disk({0.0, 2.0}, 0.5, {0.0, 0.0}, 1.5);
    CHECK(p.separation == doctest::Approx(0.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{0.0, 1.0}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{0.0, 1.5}), kEps);
}

TEST_CASE("concentric disks are separated along +x") {
    // separation 0 - (1 + 2) = -3; point = centre + 2*(1,0)
    const Proximity p = proximity_disk_disk({3.0, 4.0}, 1.0, {3.0, 4.0}, 2.0);
    CHECK(p.separation == doctest::Approx(-3.0).epsilon(kEps));
    CHECK(p.normal == Vec2{1.0, 0.0});
    CHECK_VEC_NEAR(p.point, (Vec2{5.0, 4.0}), kEps);
}

// ------------------------------------------------------------- disk–segment

TEST_CASE("disk above a segment's interior is separated along the face normal") {
    // segment (-5,0)-(5,0), centre (1,3), r 1: separation 3 - 1 = 2, normal +y, point (1,0)
    const Proximity p = proximity_disk_segment({1.0, 3.0}, 1.0, Segment{{-5.0, 0.0}, {5.0, 0.0}});
    CHECK(p.separation == doctest::Approx(2.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{0.0, 1.0}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{1.0, 0.0}), kEps);
}

TEST_CASE("disk beyond a segment's end is measured from the end point") {
    // centre (8,4): closest (5,0), d = (3,4), |d| = 5 -> separation 4, normal (0.6,0.8)
    const Proximity p = proximity_disk_segment({8.0, 4.0}, 1.0, Segment{{-5.0, 0.0}, {5.0, 0.0}});
    CHECK(p.separation == doctest::Approx(4.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{0.6, 0.8}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{5.0, 0.0}), kEps);
}

TEST_CASE("disk overlapping a segment from below has its normal pointing down") {
    // centre (0,-0.25), r 1: separation 0.25 - 1 = -0.75, normal -y
    const Proximity p = proximity_disk_segment({0.0, -0.25}, 1.0, Segment{{-5.0, 0.0}, {5.0, 0.0}});
    CHECK(p.separation == doctest::Approx(-0.75).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{0.0, -1.0}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{0.0, 0.0}), kEps);
}

TEST_CASE("a centre exactly on a segment is pushed along the segment's left normal") {
    // a -> b along +x: left normal perp((10,0)) = (0,10) -> (0,1); separation -r
    const Proximity p = proximity_disk_segment({2.0, 0.0}, 1.0, Segment{{-5.0, 0.0}, {5.0, 0.0}});
    CHECK(p.separation == doctest::Approx(-1.0).epsilon(kEps));
    CHECK(p.normal == Vec2{0.0, 1.0});
    CHECK_VEC_NEAR(p.point, (Vec2{2.0, 0.0}), kEps);
    // reversed segment b -> a along -x: left normal (0,-1)
    const Proximity q = proximity_disk_segment({2.0, 0.0}, 1.0, Segment{{5.0, 0.0}, {-5.0, 0.0}});
    CHECK(q.normal == Vec2{0.0, -1.0});
    // oblique segment (0,0)-(3,4): left normal (-0.8, 0.6); centre on it at (1.5, 2)
    const Proximity o = proximity_disk_segment({1.5, 2.0}, 1.0, Segment{{0.0, 0.0}, {3.0, 4.0}});
    CHECK(o.separation == doctest::Approx(-1.0).epsilon(kEps));
    CHECK_VEC_NEAR(o.normal, (Vec2{-0.8, 0.6}), kEps);
}

TEST_CASE("disk beside an oblique segment is separated along its left normal") {
    // segment (0,0)-(3,4), midpoint (1.5,2), left normal (-0.8,0.6);
    // centre = (1.5,2) + 2*(-0.8,0.6) = (-0.1, 3.2), r 0.5 -> separation 1.5
    const Proximity p = proximity_disk_segment({-0.1, 3.2}, 0.5, Segment{{0.0, 0.0}, {3.0, 4.0}});
    CHECK(p.separation == doctest::Approx(1.5).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{-0.8, 0.6}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{1.5, 2.0}), kEps);
}

TEST_CASE("a zero-length segment acts as a point") {
    // point (2,0), centre (5,4): distance 5, r 1 -> separation 4, normal (0.6,0.8)
    const Proximity p = proximity_disk_segment({5.0, 4.0}, 1.0, Segment{{2.0, 0.0}, {2.0, 0.0}});
    CHECK(p.separation == doctest::Approx(4.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{0.6, 0.8}), kEps);
    CHECK(p.point == Vec2{2.0, 0.0});
}

TEST_CASE("a centre exactly on a zero-length segment still gets a unit normal") {
    // Not pinned down by the header beyond "normal: unit"; check it is finite and unit.
    const Proximity p = proximity_disk_segment({2.0, 0.0}, 1.0, Segment{{2.0, 0.0}, {2.0, 0.0}});
    CHECK(is_finite(p.normal));
    CHECK(length(p.normal) == doctest::Approx(1.0).epsilon(kEps));
    CHECK(p.separation == doctest::Approx(-1.0).epsilon(kEps));
}

// ----------------------------------------------------------------- disk–box

TEST_CASE("disk outside a box face is separated along that face's normal") {
    // box half (2,1); centre (0,3), r 1: closest (0,1), separation 2 - 1 = 1, normal +y
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    const Proximity p = proximity_disk_box({0.0, 3.0}, 1.0, b);
    CHECK(p.separation == doctest::Approx(1.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{0.0, 1.0}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{0.0, 1.0}), kEps);
}

TEST_CASE("disk outside a box corner is separated from the corner point") {
    // centre (5,5): closest corner (2,1), d = (3,4), |d| = 5 -> separation 4, normal (0.6,0.8)
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    const Proximity p = proximity_disk_box({5.0, 5.0}, 1.0, b);
    CHECK(p.separation == doctest::Approx(4.0).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{0.6, 0.8}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{2.0, 1.0}), kEps);
}

TEST_CASE("disk overlapping a box face from outside has separation minus the depth") {
    // centre (2.25, 0), r 1: 0.25 outside the +x face -> separation 0.25 - 1 = -0.75
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    const Proximity p = proximity_disk_box({2.25, 0.0}, 1.0, b);
    CHECK(p.separation == doctest::Approx(-0.75).epsilon(kEps));
    CHECK_VEC_NEAR(p.normal, (Vec2{1.0, 0.0}), kEps);
    CHECK_VEC_NEAR(p.point, (Vec2{2.0, 0.0}), kEps);
}

TEST_CASE("a centre inside a box leaves through the nearest face") {
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    SUBCASE("nearest +x") {
        // (1.5, 0): distances +x 0.5, -x 3.5, +y 1, -y 1 -> +x; separation -(0.5 + 1)
        const Proximity p = proximity_disk_box({1.5, 0.0}, 1.0, b);
        CHECK(p.separation == doctest::Approx(-1.5).epsilon(kEps));
        CHECK_VEC_NEAR(p.normal, (Vec2{1.0, 0.0}), kEps);
        CHECK_VEC_NEAR(p.point, (Vec2{2.0, 0.0}), kEps);
    }
    SUBCASE("nearest +y") {
        // (0.5, 0.7): +x 1.5, -x 2.5, +y 0.3, -y 1.7 -> +y; separation -(0.3 + 1)
        const Proximity p = proximity_disk_box({0.5, 0.7}, 1.0, b);
        CHECK(p.separation == doctest::Approx(-1.3).epsilon(kEps));
        CHECK_VEC_NEAR(p.normal, (Vec2{0.0, 1.0}), kEps);
        CHECK_VEC_NEAR(p.point, (Vec2{0.5, 1.0}), kEps);
    }
    SUBCASE("nearest -x") {
        // (-1.75, 0.2): -x 0.25 -> separation -(0.25 + 1)
        const Proximity p = proximity_disk_box({-1.75, 0.2}, 1.0, b);
        CHECK(p.separation == doctest::Approx(-1.25).epsilon(kEps));
        CHECK_VEC_NEAR(p.normal, (Vec2{-1.0, 0.0}), kEps);
        CHECK_VEC_NEAR(p.point, (Vec2{-2.0, 0.2}), kEps);
    }
    SUBCASE("nearest -y") {
        // (0.5, -0.9): -y 0.1 -> separation -(0.1 + 1)
        const Proximity p = proximity_disk_box({0.5, -0.9}, 1.0, b);
        CHECK(p.separation == doctest::Approx(-1.1).epsilon(kEps));
        CHECK_VEC_NEAR(p.normal, (Vec2{0.0, -1.0}), kEps);
        CHECK_VEC_NEAR(p.point, (Vec2{0.5, -1.0}), kEps);
    }
}

TEST_CASE("a centre inside a box breaks face ties in the order +x, -x, +y, -y") {
    const Box square{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    SUBCASE("at the centre of a square all four tie: +x") {
        const Proximity p = proximity_disk_box({0.0, 0.0}, 1.0, square);
        CHECK(p.separation == doctest::Approx(-2.0).epsilon(kEps));
        CHECK(p.normal == Vec2{1.0, 0.0});
        CHECK_VEC_NEAR(p.point, (Vec2{1.0, 0.0}), kEps);
    }
    SUBCASE("-x and +y tie: -x") {
        // (-0.5, 0.5): +x 1.5, -x 0.5, +y 0.5, -y 1.5
        const Proximity p = proximity_disk_box({-0.5, 0.5}, 1.0, square);
        CHECK(p.normal == Vec2{-1.0, 0.0});
        CHECK_VEC_NEAR(p.point, (Vec2{-1.0, 0.5}), kEps);
        CHECK(p.separation == doctest::Approx(-1.5).epsilon(kEps));
    }
    SUBCASE("+y and -y tie on a wide box: +y") {
        // box half (2,1) at its centre: +x 2, -x 2, +y 1, -y 1
        const Proximity p = proximity_disk_box({0.0, 0.0}, 1.0, Box{{0.0, 0.0}, {2.0, 1.0}});
        CHECK(p.normal == Vec2{0.0, 1.0});
        CHECK_VEC_NEAR(p.point, (Vec2{0.0, 1.0}), kEps);
        CHECK(p.separation == doctest::Approx(-2.0).epsilon(kEps));
    }
    SUBCASE("-x and -y tie: -x") {
        // (-0.5, -0.5)
        const Proximity p = proximity_disk_box({-0.5, -0.5}, 1.0, square);
        CHECK(p.normal == Vec2{-1.0, 0.0});
        CHECK_VEC_NEAR(p.point, (Vec2{-1.0, -0.5}), kEps);
    }
}

TEST_CASE("a centre exactly on a box corner leaves along the first face of the tie order") {
    // centre on corner (2,1) of half (2,1): +x and +y both at distance 0 -> +x; separation -r
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    const Proximity p = proximity_disk_box({2.0, 1.0}, 1.0, b);
    CHECK(p.separation == doctest::Approx(-1.0).epsilon(kEps));
    CHECK(p.normal == Vec2{1.0, 0.0});
    CHECK_VEC_NEAR(p.point, (Vec2{2.0, 1.0}), kEps);
    // corner (-2,-1): -x before -y
    const Proximity q = proximity_disk_box({-2.0, -1.0}, 1.0, b);
    CHECK(q.normal == Vec2{-1.0, 0.0});
    CHECK_VEC_NEAR(q.point, (Vec2{-2.0, -1.0}), kEps);
    // corner (-2, 1): -x before +y
    const Proximity r = proximity_disk_box({-2.0, 1.0}, 1.0, b);
    CHECK(r.normal == Vec2{-1.0, 0.0});
}

TEST_CASE("a centre exactly on a box face is pushed out along that face") {
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    const Proximity p = proximity_disk_box({0.5, -1.0}, 1.0, b);
    CHECK(p.separation == doctest::Approx(-1.0).epsilon(kEps));
    CHECK(p.normal == Vec2{0.0, -1.0});
    CHECK_VEC_NEAR(p.point, (Vec2{0.5, -1.0}), kEps);
}

TEST_CASE("proximity to an oriented box is computed in the box's frame") {
    // axis (0.6,0.8), half (2,1).
    const Box b{{0.0, 0.0}, {2.0, 1.0}, kAx};
    SUBCASE("outside the local +y face") {
        // centre 3*ay = (-2.4, 1.8), r 1: separation 3 - 1 - 1 = 1, point 1*ay
        const Proximity p = proximity_disk_box(kAy * 3.0, 1.0, b);
        CHECK(p.separation == doctest::Approx(1.0).epsilon(kEps));
        CHECK_VEC_NEAR(p.normal, kAy, kEps);
        CHECK_VEC_NEAR(p.point, kAy, kEps);
    }
    SUBCASE("outside a corner") {
        // centre = corner local (2,1) + local (3,4): local (5,5); distance 5 -> separation 4
        // normal = 0.6*ax + 0.8*ay = (0.36 - 0.64, 0.48 + 0.48) = (-0.28, 0.96)
        const Proximity p = proximity_disk_box(kAx * 5.0 + kAy * 5.0, 1.0, b);
        CHECK(p.separation == doctest::Approx(4.0).epsilon(kEps));
        CHECK_VEC_NEAR(p.normal, (Vec2{-0.28, 0.96}), kEps);
        CHECK_VEC_NEAR(p.point, kAx * 2.0 + kAy * 1.0, kEps);
    }
    SUBCASE("centre inside near the local +x face") {
        // local (1.5, 0) -> world (0.9, 1.2): leaves through +x (ax), point 2*ax = (1.2, 1.6)
        const Proximity p = proximity_disk_box({0.9, 1.2}, 1.0, b);
        CHECK(p.separation == doctest::Approx(-1.5).epsilon(kEps));
        CHECK_VEC_NEAR(p.normal, kAx, kEps);
        CHECK_VEC_NEAR(p.point, (Vec2{1.2, 1.6}), kEps);
    }
    SUBCASE("centre at the centre of an oriented square: local +x tie winner") {
        const Proximity p = proximity_disk_box({0.0, 0.0}, 1.0, Box{{0.0, 0.0}, {1.0, 1.0}, kAx});
        CHECK_VEC_NEAR(p.normal, kAx, kEps);
        CHECK_VEC_NEAR(p.point, kAx, kEps);
    }
}
