// Sliding: a disk pressed into a floor made of many collinear pieces crosses every seam
// without snagging; a disk pushed into a corner settles without sinking in.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "carom/physics/toi.hpp"
#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::box_def;
using test::disk_def;
using test::segment_def;

namespace {
constexpr double kTick = 1.0 / 60.0;
constexpr double kRadius = 0.5;

enum class Floor { segments, boxes };

// The two ways of stopping the fall: a slide wall, or a bounce wall with restitution 0.
struct Walls {
    WallResponse response;
    double restitution;
    const char* name;
};
constexpr Walls kWallKinds[] = {{WallResponse::slide, 1.0, "slide"},
                                {WallResponse::bounce, 0.0, "bounce, restitution 0"}};

StaticDef wall_common(const Walls& k) {
    StaticDef c;
    c.response = k.response;
    c.material = {k.restitution, 0.0};
    return c;
}

// 20 pieces of length 1 covering x in [0, 20], top surface at y = 0.
void add_floor(World& w, Floor kind, const Walls& k) {
    for (int i = 0; i < 20; ++i) {
        const double x = i;
        if (kind == Floor::segments) {
            SegmentDef s = segment_def({x, 0.0}, {x + 1.0, 0.0});
            s.common = wall_common(k);
            (void)w.create_segment(s);
        } else {
            BoxDef b = box_def({x + 0.5, -0.5}, {0.5, 0.5});
            b.common = wall_common(k);
            (void)w.create_box(b);
        }
    }
}

// One run of the seam test; returns the worst deviations seen over all ticks.
struct SlideResult {
    double max_vx_error = 0.0;  // |v.x - speed|
    double max_vy = 0.0;        // |v.y|
    double max_y_error = 0.0;   // |y - r|
    double final_x = 0.0;
    std::string first_bad;  // description of the first tick with a deviation > 1e-9
};

SlideResult slide_over_floor(Floor kind, const Walls& k, double speed, int ticks) {
    World w;
    add_floor(w, kind, k);
    // resting on the floor, starting exactly above a seam
    const BodyId id = w.create_disk(disk_def({1.0, kRadius}, {speed, -1.0}, kRadius));
    SlideResult r;
    for (int tick = 0; tick < ticks; ++tick) {
        w.set_velocity(id, {speed, -1.0});  // pressed into the floor every tick
        w.step();
        const DiskState& d = w.disk(id);
        const double evx = std::abs(d.velocity.x - speed);
        const double evy = std::abs(d.velocity.y);
        const double ey = std::abs(d.position.y - kRadius);
        r.max_vx_error = std::max(r.max_vx_error, evx);
        r.max_vy = std::max(r.max_vy, evy);
        r.max_y_error = std::max(r.max_y_error, ey);
        if (r.first_bad.empty() && (evx > 1e-9 || evy > 1e-9 || ey > 1e-9)) {
            std::ostringstream os;
            os.precision(17);
            os << "tick " << tick << ": position {" << d.position.x << ", " << d.position.y
               << "}, velocity {" << d.velocity.x << ", " << d.velocity.y << "}, contacts "
               << w.contacts().size() << ", parked " << w.last_step_stats().parked_disks;
            r.first_bad = os.str();
        }
    }
    r.final_x = w.disk(id).position.x;
    return r;
}

std::string floor_name(Floor kind) {
    return kind == Floor::segments ? "segments" : "boxes";
}
}  // namespace

TEST_CASE(
    "a disk pressed into a floor of collinear segments or abutting boxes slides over "
    "every seam without snagging") {
    // Velocity (speed, -1) re-applied every tick; the floor removes the -1 and nothing else.
    // x advances speed/60 per tick: 1 + 90 * 10/60 = 16 and 1 + 15 * 60/60 = 16.
    for (Floor kind : {Floor::segments, Floor::boxes}) {
        for (const Walls& k : kWallKinds) {
            for (double speed : {10.0, 60.0}) {  // 60: exactly one piece per tick
                const int ticks = speed == 10.0 ? 90 : 15;
                const SlideResult r = slide_over_floor(kind, k, speed, ticks);
                INFO("floor " << floor_name(kind) << ", walls " << std::string(k.name) << ", speed "
                              << speed << "; first deviation: " << r.first_bad);
                CHECK(r.max_vx_error <= 1e-9);
                CHECK(r.max_y_error <= 1e-9);
                CHECK(r.final_x == doctest::Approx(16.0).epsilon(1e-9));
            }
        }
    }
}

TEST_CASE("sliding over a seam does not kick the disk off the floor") {
    // Collinear pieces form a flat floor: after the slide the normal velocity must be resting
    // contact (at most kMinApproachSpeed), not a bounce off the next piece's end or corner.
    for (Floor kind : {Floor::segments, Floor::boxes}) {
        for (const Walls& k : kWallKinds) {
            const SlideResult r = slide_over_floor(kind, k, 10.0, 90);
            INFO("floor " << floor_name(kind) << ", walls " << std::string(k.name)
                          << "; first deviation: " << r.first_bad);
            CHECK(r.max_vy <= kMinApproachSpeed);
        }
    }
}

TEST_CASE(
    "a disk sunk into a flat floor by less than the overlap tolerance crosses a seam "
    "without a bump") {
    // Overlaps below overlap_tolerance are left alone by design, so a disk may rest slightly
    // sunk (here by tol/2 = 5e-10) into one floor piece. Sliding on at (10, 0), it crosses the
    // seam at x = 1 within the tick (0.9 + 10/60 = 1.0667). The floor is flat: its velocity
    // must stay (10, 0). (Sweeping the next piece's end circle alone would tilt the normal by
    // sqrt(2 * 5e-10 / 0.5) ~ 4.5e-5 and kick the disk up at ~4.5e-4.)
    for (Floor kind : {Floor::segments, Floor::boxes}) {
        for (const Walls& k : kWallKinds) {
            INFO("floor " << floor_name(kind) << ", walls " << std::string(k.name));
            World w;
            add_floor(w, kind, k);
            const double sunk = kRadius - 0.5 * w.def().overlap_tolerance;
            const BodyId id = w.create_disk(disk_def({0.9, sunk}, {10.0, 0.0}, kRadius));
            w.step();
            const DiskState& d = w.disk(id);
            INFO("position " << d.position << ", velocity " << d.velocity);
            CHECK(std::abs(d.velocity.x - 10.0) <= 1e-9);
            CHECK(std::abs(d.velocity.y) <= kMinApproachSpeed);
            CHECK(d.position.x == doctest::Approx(0.9 + 10.0 * kTick).epsilon(1e-9));
            CHECK(d.position.y >= kRadius - w.def().overlap_tolerance);
            CHECK(d.position.y <= kRadius + 1e-9);
        }
    }
}

TEST_CASE("a disk sliding along an oblique floor of collinear segments keeps its speed") {
    // Floor direction d = (0.8, 0.6), normal nrm = perp(d) = (-0.6, 0.8); 20 unit pieces.
    // Disk pushed with 10 d - 1 nrm each tick: after the slide its velocity is 10 d.
    const Vec2 d{0.8, 0.6};
    const Vec2 nrm = perp(d);
    for (const Walls& k : kWallKinds) {
        INFO("walls " << std::string(k.name));
        World w;
        for (int i = 0; i < 20; ++i) {
            SegmentDef s = segment_def(d * static_cast<double>(i), d * static_cast<double>(i + 1));
            s.common = wall_common(k);
            (void)w.create_segment(s);
        }
        const BodyId id = w.create_disk(disk_def(d * 1.0 + nrm * kRadius, {}, kRadius));
        int bad_ticks = 0;
        for (int tick = 0; tick < 90; ++tick) {
            w.set_velocity(id, d * 10.0 - nrm * 1.0);
            w.step();
            const DiskState& s = w.disk(id);
            const bool ok = std::abs(dot(s.velocity, d) - 10.0) <= 1e-9 &&
                            std::abs(dot(s.position, nrm) - kRadius) <= 1e-9;
            if (!ok && ++bad_ticks <= 3) {
                INFO("tick " << tick << ", along " << dot(s.position, d) << ", off "
                             << dot(s.position, nrm) << ", velocity along " << dot(s.velocity, d)
                             << ", off " << dot(s.velocity, nrm) << ", parked "
                             << w.last_step_stats().parked_disks);
                CHECK(dot(s.velocity, d) == doctest::Approx(10.0).epsilon(1e-9));
                CHECK(dot(s.position, nrm) == doctest::Approx(kRadius).epsilon(1e-9));
            }
        }
        CHECK(bad_ticks == 0);
        // along the floor: 1 + 90 * 10/60 = 16
        CHECK(dot(w.disk(id).position, d) == doctest::Approx(16.0).epsilon(1e-9));
    }
}

TEST_CASE("a disk that starts slightly sunk into a floor is pushed out and then slides") {
    World w;
    add_floor(w, Floor::boxes, kWallKinds[0]);
    const BodyId id = w.create_disk(disk_def({5.0, kRadius - 1e-3}, {10.0, 0.0}, kRadius));
    w.step();
    CHECK(w.disk(id).position.y >= kRadius - w.def().overlap_tolerance - 1e-15);
    CHECK(w.disk(id).position.y == doctest::Approx(kRadius).epsilon(1e-6));
    for (int tick = 0; tick < 30; ++tick) {
        w.set_velocity(id, {10.0, -1.0});
        w.step();
    }
    // 5 + 31 * 10/60
    CHECK(w.disk(id).position.x == doctest::Approx(5.0 + 31.0 * 10.0 * kTick).epsilon(1e-9));
    CHECK(w.disk(id).position.y == doctest::Approx(kRadius).epsilon(1e-9));
}

TEST_CASE("a disk pushed into a right-angle corner settles touching both walls") {
    // Floor y = 0 and wall x = 0; r 1 -> rest at (1,1). Push (-10,-10) every tick from (3,3).
    for (Floor kind : {Floor::segments, Floor::boxes}) {
        for (const Walls& k : kWallKinds) {
            INFO("walls " << std::string(kind == Floor::segments ? "segments" : "boxes") << ", "
                          << std::string(k.name));
            World w;
            if (kind == Floor::segments) {
                SegmentDef floor = segment_def({-10.0, 0.0}, {10.0, 0.0});
                SegmentDef wall = segment_def({0.0, 0.0}, {0.0, 10.0});
                floor.common = wall_common(k);
                wall.common = wall_common(k);
                (void)w.create_segment(floor);
                (void)w.create_segment(wall);
            } else {
                BoxDef floor = box_def({0.0, -1.0}, {10.0, 1.0});
                BoxDef wall = box_def({-1.0, 5.0}, {1.0, 5.0});
                floor.common = wall_common(k);
                wall.common = wall_common(k);
                (void)w.create_box(floor);
                (void)w.create_box(wall);
            }
            const BodyId id = w.create_disk(disk_def({3.0, 3.0}, {}, 1.0));
            const double tol = w.def().overlap_tolerance + 1e-12;
            for (int tick = 0; tick < 120; ++tick) {
                w.set_velocity(id, {-10.0, -10.0});
                w.step();
                const Vec2 p = w.disk(id).position;
                REQUIRE(is_finite(p));
                CHECK(p.x >= 1.0 - tol);  // overlap with the wall <= tolerance
                CHECK(p.y >= 1.0 - tol);  // overlap with the floor <= tolerance
            }
            CHECK_VEC_NEAR(w.disk(id).position, (Vec2{1.0, 1.0}), 1e-9);
            CHECK(length(w.disk(id).velocity) <= 1e-9);
        }
    }
}

TEST_CASE("a disk pushed into an acute V corner settles on its axis without sinking in") {
    // Walls from the origin along (0.6,0.8) and (-0.6,0.8). Rest: centre (0, y) at distance 1
    // from both lines: |cross((0.6,0.8), (0,y))| = 0.6 y = 1 -> y = 5/3.
    for (const Walls& k : kWallKinds) {
        INFO("walls " << std::string(k.name));
        World w;
        SegmentDef right = segment_def({0.0, 0.0}, {6.0, 8.0});
        SegmentDef left = segment_def({-6.0, 8.0}, {0.0, 0.0});
        right.common = wall_common(k);
        left.common = wall_common(k);
        (void)w.create_segment(right);
        (void)w.create_segment(left);
        const BodyId id = w.create_disk(disk_def({0.0, 5.0}, {}, 1.0));
        for (int tick = 0; tick < 120; ++tick) {
            w.set_velocity(id, {0.0, -10.0});
            w.step();
            const Vec2 p = w.disk(id).position;
            REQUIRE(is_finite(p));
            // distance to each wall line >= r - 1e-6
            CHECK(std::abs(cross(Vec2{0.6, 0.8}, p)) >= 1.0 - 1e-6);
            CHECK(std::abs(cross(Vec2{-0.6, 0.8}, p)) >= 1.0 - 1e-6);
            CHECK(p.y > 0.0);
        }
        CHECK(std::abs(w.disk(id).position.x) <= 1e-6);
        CHECK(w.disk(id).position.y == doctest::Approx(5.0 / 3.0).epsilon(1e-6));
    }
}
