// Time of impact (toi.hpp): a moving disk against a disk, a segment and a box.
// Every expected value is computed by hand in the comment next to it.
#include "carom/physics/toi.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>

#include "test_support.hpp"

using namespace carom::physics;

namespace {
constexpr double kEps = 1e-12;
const double kSqrt2 = std::sqrt(2.0);
const double kSqrt3 = std::sqrt(3.0);
}  // namespace

// ---------------------------------------------------------------- disk–disk

TEST_CASE("disk-disk head-on impact happens when the centre distance equals the radius sum") {
    // d(t) = (0 + 10t) - 5; |d| = 2 -> 10t = 3 -> t = 0.3; normal from other (5,0) to disk: -x
    const auto hit = toi_disk_disk({0.0, 0.0}, 1.0, {10.0, 0.0}, {5.0, 0.0}, 1.0, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.3).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
}

TEST_CASE("disk-disk oblique impact time and normal follow the quadratic") {
    // (10t - 5)^2 + 1 = 4 -> 10t = 5 - sqrt(3) -> t = (5 - sqrt3)/10 ~ 0.3267949
    // at contact disk centre (5 - sqrt3, 0); normal = ((5 - sqrt3) - 5, 0 - 1)/2 = (-sqrt3/2, -1/2)
    const auto hit = toi_disk_disk({0.0, 0.0}, 1.0, {10.0, 0.0}, {5.0, 1.0}, 1.0, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx((5.0 - kSqrt3) / 10.0).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-kSqrt3 / 2.0, -0.5}), kEps);
}

TEST_CASE("disk-disk with unequal radii uses the radius sum") {
    // r = 0.5, R = 2 -> contact at |d| = 2.5: 10t = 10 - 2.5 -> t = 0.75
    const auto hit = toi_disk_disk({0.0, 0.0}, 0.5, {10.0, 0.0}, {10.0, 0.0}, 2.0, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.75).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
}

TEST_CASE("disk-disk misses when the closest approach exceeds the radius sum") {
    // passes (5, 2.5) at perpendicular distance 2.5 > 2
    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {10.0, 0.0}, {5.0, 2.5}, 1.0, 1.0).has_value());
    // moving away
    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {-10.0, 0.0}, {5.0, 0.0}, 1.0, 1.0).has_value());
}

TEST_CASE("disk-disk impact exactly at t_max counts and one beyond t_max does not") {
    // (t - 3)^2 = 4 -> t = 1 exactly (a = 1, b/2 = -3, c = 5, disc = 4)
    const auto at = toi_disk_disk({0.0, 0.0}, 1.0, {1.0, 0.0}, {3.0, 0.0}, 1.0, 1.0);
    REQUIRE(at.has_value());
    CHECK(at->t == doctest::Approx(1.0).epsilon(kEps));
    CHECK(at->t <= 1.0);
    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {1.0, 0.0}, {3.0, 0.0}, 1.0, 0.999).has_value());
}

TEST_CASE("disk-disk with zero relative velocity never hits") {
    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {0.0, 0.0}, {5.0, 0.0}, 1.0, 1.0).has_value());
    // already overlapping but not moving: not an impact either
    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {0.0, 0.0}, {1.0, 0.0}, 1.0, 1.0).has_value());
}

TEST_CASE("touching disks hit at t=0 only when approaching") {
    // centres 2 apart, radii 1 + 1: touching.
    const auto approaching = toi_disk_disk({0.0, 0.0}, 1.0, {1.0, 0.0}, {2.0, 0.0}, 1.0, 1.0);
    REQUIRE(approaching.has_value());
    CHECK(approaching->t == 0.0);
    CHECK_VEC_NEAR(approaching->normal, (Vec2{-1.0, 0.0}), kEps);

    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {-1.0, 0.0}, {2.0, 0.0}, 1.0, 1.0).has_value());
    // tangential motion: resting/sliding contact is not an impact
    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {0.0, 1.0}, {2.0, 0.0}, 1.0, 1.0).has_value());
}

TEST_CASE("overlapping disks hit at t=0 when approaching and never when separating") {
    const auto approaching = toi_disk_disk({0.0, 0.0}, 1.0, {1.0, 0.0}, {1.0, 0.0}, 1.0, 1.0);
    REQUIRE(approaching.has_value());
    CHECK(approaching->t == 0.0);
    CHECK_VEC_NEAR(approaching->normal, (Vec2{-1.0, 0.0}), kEps);

    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {-1.0, 0.0}, {1.0, 0.0}, 1.0, 1.0).has_value());
}

TEST_CASE("concentric disks never report an impact") {
    CHECK_FALSE(toi_disk_disk({3.0, 4.0}, 1.0, {0.0, 0.0}, {3.0, 4.0}, 2.0, 1.0).has_value());
    CHECK_FALSE(toi_disk_disk({3.0, 4.0}, 1.0, {5.0, 0.0}, {3.0, 4.0}, 2.0, 1.0).has_value());
}

TEST_CASE(
    "an approach speed at or below kMinApproachSpeed is resting contact, above it is an impact") {
    // touching disks; normal speed kMinApproachSpeed/2 -> no impact; 1e-6 -> impact at t=0
    CHECK_FALSE(toi_disk_disk({0.0, 0.0}, 1.0, {kMinApproachSpeed / 2.0, 0.0}, {2.0, 0.0}, 1.0, 1.0)
                    .has_value());
    const auto hit = toi_disk_disk({0.0, 0.0}, 1.0, {1e-6, 0.0}, {2.0, 0.0}, 1.0, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == 0.0);
}

TEST_CASE("disk-disk with radius 0 is a ray cast against the other disk") {
    // ray from origin along +x at 10/s meets the circle |x - 5| = 1 at x = 4 -> t = 0.4
    const auto hit = toi_disk_disk({0.0, 0.0}, 0.0, {10.0, 0.0}, {5.0, 0.0}, 1.0, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.4).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
}

TEST_CASE("disk-disk at hundreds of radii per second still finds the impact") {
    // contact at x = -1 (radius sum 1): t = (1000 - 1)/30000 = 0.0333
    const auto hit =
        toi_disk_disk({-1000.0, 0.0}, 0.5, {30000.0, 0.0}, {0.0, 0.0}, 0.5, 1.0 / 60.0 * 3.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(999.0 / 30000.0).epsilon(kEps));
}

// ------------------------------------------------------------- disk–segment

TEST_CASE("disk hits a segment's face from either side with the face normal") {
    const Segment s{{-5.0, 0.0}, {5.0, 0.0}};
    // from above: centre reaches y = 1 after travelling 4 at 10/s -> t = 0.4, normal +y
    const auto above = toi_disk_segment({0.0, 5.0}, 1.0, {0.0, -10.0}, s, 1.0);
    REQUIRE(above.has_value());
    CHECK(above->t == doctest::Approx(0.4).epsilon(kEps));
    CHECK_VEC_NEAR(above->normal, (Vec2{0.0, 1.0}), kEps);
    // from below: y = -1 at t = 0.4, normal -y
    const auto below = toi_disk_segment({1.0, -5.0}, 1.0, {0.0, 10.0}, s, 1.0);
    REQUIRE(below.has_value());
    CHECK(below->t == doctest::Approx(0.4).epsilon(kEps));
    CHECK_VEC_NEAR(below->normal, (Vec2{0.0, -1.0}), kEps);
}

TEST_CASE("disk moving along a segment's line hits its end circle") {
    // segment (0,0)-(10,0); centre from (-5,0) reaches x = -1 at t = 0.4
    const Segment s{{0.0, 0.0}, {10.0, 0.0}};
    const auto hit = toi_disk_segment({-5.0, 0.0}, 1.0, {10.0, 0.0}, s, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.4).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
}

TEST_CASE("disk passing an end point off-axis hits the end circle at the circle's time") {
    // centre path y = 0.6: x^2 + 0.36 = 1 -> x = -0.8 -> t = (5 - 0.8)/10 = 0.42
    // normal = (-0.8, 0.6)/1
    const Segment s{{0.0, 0.0}, {10.0, 0.0}};
    const auto hit = toi_disk_segment({-5.0, 0.6}, 1.0, {10.0, 0.0}, s, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.42).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-0.8, 0.6}), kEps);
}

TEST_CASE("disk hits an oblique segment along its left normal") {
    // segment (0,0)-(3,4): direction (0.6,0.8), left normal (-0.8,0.6), midpoint (1.5,2).
    // start = midpoint + 5*(-0.8,0.6) = (-2.5, 5); velocity -10*(-0.8,0.6) = (8,-6).
    // distance 5 -> 1 after travelling 4 at speed 10 -> t = 0.4
    const Segment s{{0.0, 0.0}, {3.0, 4.0}};
    const auto hit = toi_disk_segment({-2.5, 5.0}, 1.0, {8.0, -6.0}, s, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.4).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-0.8, 0.6}), kEps);
}

TEST_CASE("a zero-length segment is swept against as a point") {
    const Segment s{{5.0, 0.0}, {5.0, 0.0}};
    // head on: x = 4 at t = 0.4
    const auto head_on = toi_disk_segment({0.0, 0.0}, 1.0, {10.0, 0.0}, s, 1.0);
    REQUIRE(head_on.has_value());
    CHECK(head_on->t == doctest::Approx(0.4).epsilon(kEps));
    CHECK_VEC_NEAR(head_on->normal, (Vec2{-1.0, 0.0}), kEps);
    // off-axis: (x-5)^2 + 0.36 = 1 -> x = 4.2 -> t = 0.42, normal (-0.8, 0.6)
    const auto off = toi_disk_segment({0.0, 0.6}, 1.0, {10.0, 0.0}, s, 1.0);
    REQUIRE(off.has_value());
    CHECK(off->t == doctest::Approx(0.42).epsilon(kEps));
    CHECK_VEC_NEAR(off->normal, (Vec2{-0.8, 0.6}), kEps);
    // passes at distance 1.5 > 1: miss
    CHECK_FALSE(toi_disk_segment({0.0, 1.5}, 1.0, {10.0, 0.0}, s, 1.0).has_value());
}

TEST_CASE("disk-segment with radius 0 is a ray cast") {
    // ray from (2,5) with velocity (-4,-10) reaches y = 0 at t = 0.5, at x = 0 (on the segment)
    const Segment s{{-5.0, 0.0}, {5.0, 0.0}};
    const auto hit = toi_disk_segment({2.0, 5.0}, 0.0, {-4.0, -10.0}, s, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.5).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, 1.0}), kEps);
    // the same ray shifted past the end misses: crosses y = 0 at x = 6
    CHECK_FALSE(toi_disk_segment({8.0, 5.0}, 0.0, {-4.0, -10.0}, s, 1.0).has_value());
}

TEST_CASE("disk resting on a segment and sliding along it past its end is not stopped") {
    const Segment s{{-5.0, 0.0}, {5.0, 0.0}};
    // centre at height exactly r, moving +x to x = 10 (past the end at 5)
    CHECK_FALSE(toi_disk_segment({0.0, 1.0}, 1.0, {10.0, 0.0}, s, 1.0).has_value());
}

TEST_CASE("disk touching a segment and pressed into it hits at t=0") {
    const Segment s{{-5.0, 0.0}, {5.0, 0.0}};
    const auto hit = toi_disk_segment({0.0, 1.0}, 1.0, {10.0, -1.0}, s, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == 0.0);
    CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, 1.0}), kEps);
}

TEST_CASE("disk overlapping a segment hits at t=0 when approaching and never when separating") {
    const Segment s{{-5.0, 0.0}, {5.0, 0.0}};
    const auto hit = toi_disk_segment({0.0, 0.5}, 1.0, {0.0, -1.0}, s, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == 0.0);
    CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, 1.0}), kEps);
    CHECK_FALSE(toi_disk_segment({0.0, 0.5}, 1.0, {0.0, 1.0}, s, 1.0).has_value());
    CHECK_FALSE(toi_disk_segment({0.0, 0.5}, 1.0, {3.0, 0.0}, s, 1.0).has_value());
}

TEST_CASE("disk-segment respects t_max and misses past the end point") {
    const Segment s{{-5.0, 0.0}, {5.0, 0.0}};
    // impact would be at t = 0.4
    CHECK_FALSE(toi_disk_segment({0.0, 5.0}, 1.0, {0.0, -10.0}, s, 0.39).has_value());
    // straight down at x = 7: distance 2 from the end point (5,0) > r = 1
    CHECK_FALSE(toi_disk_segment({7.0, 5.0}, 1.0, {0.0, -10.0}, s, 1.0).has_value());
    // zero velocity
    CHECK_FALSE(toi_disk_segment({0.0, 5.0}, 1.0, {0.0, 0.0}, s, 1.0).has_value());
}

// ----------------------------------------------------------------- disk–box

TEST_CASE("disk hits the faces of an axis-aligned box with the face normals") {
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    // from the left: centre reaches x = -3 after travelling 7 -> t = 0.7
    const auto left = toi_disk_box({-10.0, 0.0}, 1.0, {10.0, 0.0}, b, 1.0);
    REQUIRE(left.has_value());
    CHECK(left->t == doctest::Approx(0.7).epsilon(kEps));
    CHECK_VEC_NEAR(left->normal, (Vec2{-1.0, 0.0}), kEps);
    // from above: centre reaches y = 2 after travelling 8 -> t = 0.8
    const auto top = toi_disk_box({0.5, 10.0}, 1.0, {0.0, -10.0}, b, 1.0);
    REQUIRE(top.has_value());
    CHECK(top->t == doctest::Approx(0.8).epsilon(kEps));
    CHECK_VEC_NEAR(top->normal, (Vec2{0.0, 1.0}), kEps);
    // from the right and below
    const auto right = toi_disk_box({10.0, -0.5}, 1.0, {-10.0, 0.0}, b, 1.0);
    REQUIRE(right.has_value());
    CHECK(right->t == doctest::Approx(0.7).epsilon(kEps));
    CHECK_VEC_NEAR(right->normal, (Vec2{1.0, 0.0}), kEps);
    const auto bottom = toi_disk_box({-1.5, -10.0}, 1.0, {0.0, 10.0}, b, 1.0);
    REQUIRE(bottom.has_value());
    CHECK(bottom->t == doctest::Approx(0.8).epsilon(kEps));
    CHECK_VEC_NEAR(bottom->normal, (Vec2{0.0, -1.0}), kEps);
}

TEST_CASE("disk sweeping at a box corner hits the corner circle, not the face") {
    // box [-1,1]^2, corner (1,1). Path y = 1.6 (above the top face, within r of the corner):
    // (x - 1)^2 + 0.6^2 = 1 -> x = 1.8 -> t = (10 - 1.8)/10 = 0.82 ; a square-cornered
    // Minkowski box would give x = 2, t = 0.8. normal = (0.8, 0.6)
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    const auto hit = toi_disk_box({10.0, 1.6}, 1.0, {-10.0, 0.0}, b, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.82).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{0.8, 0.6}), kEps);
}

TEST_CASE("disk aimed diagonally at a box corner hits it along the diagonal") {
    // from (5,5) along (-1,-1): stop at distance 1 from the corner (1,1), i.e. at
    // (1 + 1/sqrt2, 1 + 1/sqrt2). Travel = (4 - 1/sqrt2)*sqrt2 = 4 sqrt2 - 1, speed 10 sqrt2
    // -> t = 0.4 - 1/(10 sqrt2) ~ 0.3292893
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    const auto hit = toi_disk_box({5.0, 5.0}, 1.0, {-10.0, -10.0}, b, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.4 - 1.0 / (10.0 * kSqrt2)).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{1.0 / kSqrt2, 1.0 / kSqrt2}), kEps);
}

TEST_CASE("disk passing just outside a rounded corner misses the box") {
    // The path is perpendicular to the corner diagonal and passes the corner (1,1) at distance
    // 1.05 > r = 1, but well inside the square Minkowski box [-2,2]^2 (its corner (2,2) is
    // sqrt2 from (1,1)). Start: (1,1) + 1.05*u + (-10)*w, u = (1,1)/sqrt2, w = (-1,1)/sqrt2.
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    const Vec2 u{1.0 / kSqrt2, 1.0 / kSqrt2};
    const Vec2 w{-1.0 / kSqrt2, 1.0 / kSqrt2};
    const Vec2 start = Vec2{1.0, 1.0} + u * 1.05 - w * 10.0;
    CHECK_FALSE(toi_disk_box(start, 1.0, w * 10.0, b, 2.0).has_value());
    // the same path at distance 0.95 does hit the corner circle
    const Vec2 closer = Vec2{1.0, 1.0} + u * 0.95 - w * 10.0;
    const auto hit = toi_disk_box(closer, 1.0, w * 10.0, b, 2.0);
    REQUIRE(hit.has_value());
    // along w: s^2 + 0.95^2 = 1 -> s = -sqrt(0.0975); t = (10 - sqrt(0.0975))/10
    CHECK(hit->t == doctest::Approx((10.0 - std::sqrt(0.0975)) / 10.0).epsilon(1e-12));
}

TEST_CASE("disk hits the faces of an oriented box along its own axes") {
    // axis ax = (0.6,0.8), ay = perp(ax) = (-0.8,0.6), half extents (2,1), centre origin.
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {0.6, 0.8}};
    // along -ax from 10*ax = (6,8): local x from 10 to 3 (= 2 + r) -> travel 7 -> t = 0.7
    const auto x_face = toi_disk_box({6.0, 8.0}, 1.0, {-6.0, -8.0}, b, 1.0);
    REQUIRE(x_face.has_value());
    CHECK(x_face->t == doctest::Approx(0.7).epsilon(kEps));
    CHECK_VEC_NEAR(x_face->normal, (Vec2{0.6, 0.8}), kEps);
    // along -ay from 10*ay = (-8,6): local y from 10 to 2 (= 1 + r) -> travel 8 -> t = 0.8
    const auto y_face = toi_disk_box({-8.0, 6.0}, 1.0, {8.0, -6.0}, b, 1.0);
    REQUIRE(y_face.has_value());
    CHECK(y_face->t == doctest::Approx(0.8).epsilon(kEps));
    CHECK_VEC_NEAR(y_face->normal, (Vec2{-0.8, 0.6}), kEps);
}

TEST_CASE("disk hits an oriented box's corner as a circle") {
    // Same as the axis-aligned corner case in the box's frame (half (2,1), corner local (2,1)):
    // local path y = 1.6 from local x = 10 moving -x at 10: (x - 2)^2 + 0.36 = 1 -> x = 2.8
    // -> t = 0.72. World start = 10*ax + 1.6*ay = (6 - 1.28, 8 + 0.96) = (4.72, 8.96);
    // velocity -10*ax = (-6,-8); normal = 0.8*ax + 0.6*ay = (0.48-0.48, 0.64+0.36) = (0, 1).
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {0.6, 0.8}};
    const auto hit = toi_disk_box({4.72, 8.96}, 1.0, {-6.0, -8.0}, b, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.72).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, 1.0}), kEps);
}

TEST_CASE("disk-box with radius 0 is a ray cast against the box") {
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    // ray from (-5, 0.5) along +x at 10 reaches x = -1 at t = 0.4
    const auto hit = toi_disk_box({-5.0, 0.5}, 0.0, {10.0, 0.0}, b, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx(0.4).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
    // ray passing above the box misses
    CHECK_FALSE(toi_disk_box({-5.0, 1.5}, 0.0, {10.0, 0.0}, b, 1.0).has_value());
    // oriented box: ray from 10*ax along -ax reaches local x = 2 at t = 0.8
    const Box ob{{0.0, 0.0}, {2.0, 1.0}, {0.6, 0.8}};
    const auto ohit = toi_disk_box({6.0, 8.0}, 0.0, {-6.0, -8.0}, ob, 1.0);
    REQUIRE(ohit.has_value());
    CHECK(ohit->t == doctest::Approx(0.8).epsilon(kEps));
    CHECK_VEC_NEAR(ohit->normal, (Vec2{0.6, 0.8}), kEps);
}

TEST_CASE("disk sliding along a box face past its corner is not stopped") {
    // resting on the top face (y = 1 + r) and moving +x past the corner at x = 1
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    CHECK_FALSE(toi_disk_box({0.0, 2.0}, 1.0, {10.0, 0.0}, b, 1.0).has_value());
}

TEST_CASE("disk touching a box face and pressed into it hits at t=0") {
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    const auto hit = toi_disk_box({0.0, 2.0}, 1.0, {10.0, -1.0}, b, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == 0.0);
    CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, 1.0}), kEps);
}

TEST_CASE("disk overlapping a box from outside hits at t=0 only when approaching") {
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    // centre (1.5, 0): 0.5 outside the right face, overlap 0.5
    const auto hit = toi_disk_box({1.5, 0.0}, 1.0, {-1.0, 0.0}, b, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == 0.0);
    CHECK_VEC_NEAR(hit->normal, (Vec2{1.0, 0.0}), kEps);
    CHECK_FALSE(toi_disk_box({1.5, 0.0}, 1.0, {1.0, 0.0}, b, 1.0).has_value());
    CHECK_FALSE(toi_disk_box({1.5, 0.0}, 1.0, {0.0, 1.0}, b, 1.0).has_value());
}

TEST_CASE("disk with its centre inside a box uses the nearest face's normal at t=0") {
    // centre (0.5, 0) in [-1,1]^2: nearest face +x (0.5 away) -> normal (1,0)
    const Box b{{0.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    const auto into = toi_disk_box({0.5, 0.0}, 1.0, {-1.0, 0.0}, b, 1.0);
    REQUIRE(into.has_value());
    CHECK(into->t == 0.0);
    CHECK_VEC_NEAR(into->normal, (Vec2{1.0, 0.0}), kEps);
    // moving out through that face is not an impact
    CHECK_FALSE(toi_disk_box({0.5, 0.0}, 1.0, {1.0, 0.0}, b, 1.0).has_value());
}

TEST_CASE("disk-box respects t_max and zero velocity") {
    const Box b{{0.0, 0.0}, {2.0, 1.0}, {1.0, 0.0}};
    CHECK_FALSE(toi_disk_box({-10.0, 0.0}, 1.0, {10.0, 0.0}, b, 0.69).has_value());
    CHECK_FALSE(toi_disk_box({-10.0, 0.0}, 1.0, {0.0, 0.0}, b, 1.0).has_value());
}

TEST_CASE("small fast disk against a thin box finds the impact on the near face") {
    // thin box half (0.05, 10); r = 0.5; contact at x = -0.55 -> t = (1000 - 0.55)/30000
    const Box b{{0.0, 0.0}, {0.05, 10.0}, {1.0, 0.0}};
    const auto hit = toi_disk_box({-1000.0, 0.0}, 0.5, {30000.0, 0.0}, b, 1.0);
    REQUIRE(hit.has_value());
    CHECK(hit->t == doctest::Approx((1000.0 - 0.55) / 30000.0).epsilon(kEps));
    CHECK_VEC_NEAR(hit->normal, (Vec2{-1.0, 0.0}), kEps);
}

// ------------------------------------------------ robustness at rounding-error distances

TEST_CASE(
    "a disk touching a segment or box face to within rounding and moving into it hits at "
    "t ~ 0") {
    // Random oblique segments and oriented boxes; the disk is placed at distance r from the face
    // plus a random offset of a few 1e-16 (rounding noise of the placement itself) and moves
    // straight into the face at speed 1. Whether the placement rounds to "just touching" or
    // "just overlapping", the contract gives an impact at t = 0 (or within the offset's travel
    // time), along the face normal.
    test::XorShift32 rng(0xC0FFEEu);
    int seg_failures = 0;
    int box_failures = 0;
    for (int i = 0; i < 20000; ++i) {
        const Vec2 a{rng.uniform(0.0, 10.0), rng.uniform(0.0, 10.0)};
        const Vec2 b{rng.uniform(0.0, 10.0), rng.uniform(0.0, 10.0)};
        if (length(b - a) < 1.0) continue;
        const Vec2 n = perp(normalize_or(b - a, {1.0, 0.0}));
        // one draw per statement: the order of evaluation within an expression is unspecified
        const double f = rng.uniform(0.1, 0.9);
        const double noise = rng.uniform(-2e-15, 2e-15);
        const Vec2 p = a + (b - a) * f + n * (0.5 + noise);
        const auto hit = toi_disk_segment(p, 0.5, -n, Segment{a, b}, 1.0 / 60.0);
        const bool ok = hit && hit->t <= 1e-12 && length(hit->normal - n) <= 1e-9;
        if (!ok && ++seg_failures <= 3) {
            INFO("segment a " << a << " b " << b << ", disk " << p << ", velocity " << -n << ": "
                              << std::string(hit ? "late hit" : "no hit"));
            CHECK(ok);
        }

        const Vec2 ax = normalize_or(Vec2{rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)}, {1, 0});
        const Vec2 ay = perp(ax);
        const Box box{{rng.uniform(0.0, 10.0), rng.uniform(0.0, 10.0)},
                      {rng.uniform(0.5, 3.0), rng.uniform(0.05, 3.0)},
                      ax};
        const double along = rng.uniform(-0.8, 0.8);
        const double bnoise = rng.uniform(-2e-15, 2e-15);
        const Vec2 q = box.center + ax * (box.half_extents.x * along) +
                       ay * (box.half_extents.y + 0.5 + bnoise);
        const auto bhit = toi_disk_box(q, 0.5, -ay, box, 1.0 / 60.0);
        const bool bok = bhit && bhit->t <= 1e-12 && length(bhit->normal - ay) <= 1e-9;
        if (!bok && ++box_failures <= 3) {
            INFO("box centre " << box.center << " half " << box.half_extents << " axis " << ax
                               << ", disk " << q << ", velocity " << -ay << ": "
                               << std::string(bhit ? "late hit" : "no hit"));
            CHECK(bok);
        }
    }
    CHECK(seg_failures == 0);
    CHECK(box_failures == 0);
}

TEST_CASE(
    "a disk sliding along a face within rounding of touching is not stopped at the "
    "corner or end point") {
    // Box [8,9]x[-1,0] and segment (8,0)-(9,0); disk r 0.5 at height 0.5 + k ulp, k in -4..4,
    // moving +x at 10 past the corner/end at x = 9. Above: the path misses the corner circle
    // (its top is y = 0.5). Touching or overlapping: the approach speed along the face normal
    // is 0, so never an impact. Either way: no impact.
    const Box box{{8.5, -0.5}, {0.5, 0.5}, {1.0, 0.0}};
    const Segment seg{{8.0, 0.0}, {9.0, 0.0}};
    int failures = 0;
    for (double x : {8.5, 8.8333333333333339, 8.99, 8.9999999963499757, 8.999999999999}) {
        double y = 0.5;
        for (int k = 0; k < 4; ++k)
            y = std::nextafter(y, 0.0);
        for (int k = -4; k <= 4; ++k, y = std::nextafter(y, 1.0)) {
            const auto hb = toi_disk_box({x, y}, 0.5, {10.0, 0.0}, box, 1.0 / 60.0);
            const auto hs = toi_disk_segment({x, y}, 0.5, {10.0, 0.0}, seg, 1.0 / 60.0);
            if ((hb || hs) && ++failures <= 5) {
                INFO("x " << x << ", y = 0.5 " << std::string(k < 0 ? "- " : "+ ") << std::abs(k)
                          << " ulp: box " << std::string(hb ? "hit" : "no hit") << ", segment "
                          << std::string(hs ? "hit" : "no hit"));
                INFO("box hit t " << (hb ? hb->t : -1.0) << " normal "
                                  << (hb ? hb->normal : Vec2{}));
                CHECK_FALSE(hb.has_value());
                CHECK_FALSE(hs.has_value());
            }
        }
    }
    CHECK(failures == 0);
}
