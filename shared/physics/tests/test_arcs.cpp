// Arcs and planes: times of impact against analytic answers, both sides of an
// arc, one-sided walls (bias), no tunnelling at any speed or grazing angle,
// kinetic energy kept at restitution 1, and a disk that slides where an arc
// meets a segment.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>

#include "carom/physics/domain.hpp"
#include "carom/physics/proximity.hpp"
#include "carom/physics/toi.hpp"
#include "carom/physics/world.hpp"
#include "test_support.hpp"

using namespace carom::physics;
using test::disk_def;
using test::segment_def;

namespace {

constexpr double kTick = 1.0 / 60.0;

// Test set-up only (not the deterministic core): points from degrees.
Vec2 on_circle(Vec2 center, double radius, double degrees) {
    const double a = degrees * std::numbers::pi / 180.0;
    return center + Vec2{std::cos(a), std::sin(a)} * radius;
}

// The arc of the circle from `from` counterclockwise to `to` degrees.
Arc arc_of(Vec2 center, double radius, double from, double to) {
    return {center, radius, on_circle(center, radius, from), on_circle(center, radius, to)};
}

ArcDef arc_def(const Arc& arc, double bias = 0.0) {
    ArcDef def;
    def.arc = arc;
    def.bias = bias;
    return def;
}

// A seed per run, printed so a failure can be replayed (CAROM_SEED overrides it).
std::uint32_t test_seed(const char* name) {
    std::uint32_t seed = static_cast<std::uint32_t>(
        std::chrono::steady_clock::now().time_since_epoch().count() & 0xFFFFFFFFu);
    if (const char* env = std::getenv("CAROM_SEED"))
        seed = static_cast<std::uint32_t>(std::stoul(env));
    std::printf("%s: seed %u (CAROM_SEED=%u to repeat)\n", name, seed, seed);
    return seed;
}

// A closed ring of `pieces` arcs around `center`.
void add_ring(World& w, Vec2 center, double radius, int pieces, double restitution = 1.0) {
    for (int k = 0; k < pieces; ++k) {
        ArcDef def = arc_def(arc_of(center, radius, 360.0 * k / pieces, 360.0 * (k + 1) / pieces));
        def.common.material.restitution = restitution;
        (void)w.create_arc(def);
    }
}

}  // namespace

TEST_CASE("an arc's sector and bounds follow its ends, less or more than half a turn") {
    const Arc quarter = arc_of({0.0, 0.0}, 5.0, 0.0, 90.0);
    CHECK(in_sector(quarter, {1.0, 1.0}));
    CHECK(in_sector(quarter, {1.0, 0.0}));
    CHECK_FALSE(in_sector(quarter, {-1.0, 1.0}));
    CHECK_FALSE(in_sector(quarter, {1.0, -1e-9}));
    const Arc most = arc_of({0.0, 0.0}, 5.0, -45.0, 225.0);  // open at the bottom
    CHECK(in_sector(most, {-1.0, 0.0}));
    CHECK(in_sector(most, {0.0, 1.0}));
    CHECK_FALSE(in_sector(most, {0.0, -1.0}));
    const Aabb q = bounds_of(quarter);
    CHECK(q.min.x == doctest::Approx(0.0));
    CHECK(q.max.x == doctest::Approx(5.0));
    CHECK(q.max.y == doctest::Approx(5.0));
    const Aabb m = bounds_of(most);
    CHECK(m.min.x == doctest::Approx(-5.0));
    CHECK(m.max.y == doctest::Approx(5.0));
    CHECK(m.min.y == doctest::Approx(-5.0 * std::sqrt(0.5)));
}

TEST_CASE("times of impact against an arc match the analytic answers") {
    const Arc top = arc_of({0.0, 0.0}, 5.0, -45.0, 135.0);
    SUBCASE("from outside, onto the outer face at radius + r") {
        const auto hit = toi_disk_arc({0.0, 10.0}, 1.0, {0.0, -1.0}, top, 100.0);
        REQUIRE(hit);
        CHECK(hit->t == doctest::Approx(4.0));
        CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, 1.0}), 1e-12);
    }
    SUBCASE("from inside, onto the inner face at radius - r") {
        const auto hit = toi_disk_arc({0.0, 0.0}, 1.0, {0.0, 2.0}, top, 100.0);
        REQUIRE(hit);
        CHECK(hit->t == doctest::Approx(2.0));
        CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, -1.0}), 1e-12);
    }
    SUBCASE("in through the opening, onto the inner face of the far side") {
        const Arc open_below = arc_of({0.0, 0.0}, 5.0, -45.0, 225.0);
        const auto hit = toi_disk_arc({0.0, -20.0}, 1.0, {0.0, 1.0}, open_below, 100.0);
        REQUIRE(hit);
        CHECK(hit->t == doctest::Approx(24.0));
        CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, -1.0}), 1e-12);
    }
    SUBCASE("an end circle, where the path misses the faces") {
        const Arc quarter{{0.0, 0.0}, 5.0, {5.0, 0.0}, {0.0, 5.0}};
        const auto hit = toi_disk_arc({5.0, -10.0}, 1.0, {0.0, 1.0}, quarter, 100.0);
        REQUIRE(hit);
        CHECK(hit->t == doctest::Approx(9.0));
        CHECK_VEC_NEAR(hit->normal, (Vec2{0.0, -1.0}), 1e-12);
    }
    SUBCASE("an oblique path onto the outer face: |p + v t| = R + r") {
        const Vec2 p{20.0, 3.0};
        const Vec2 v{-4.0, 0.0};
        const auto hit = toi_disk_arc(p, 1.0, v, top, 100.0);
        REQUIRE(hit);
        // x² + 9 = 36 on entry: x = sqrt(27), reached after (20 - sqrt(27)) / 4.
        CHECK(hit->t == doctest::Approx((20.0 - std::sqrt(27.0)) / 4.0));
        const Vec2 q = p + v * hit->t;
        CHECK_VEC_NEAR(hit->normal, q / 6.0, 1e-12);
    }
    SUBCASE("a path that passes the opening touches nothing") {
        const Arc open_below = arc_of({0.0, 0.0}, 5.0, -45.0, 225.0);
        CHECK_FALSE(toi_disk_arc({-20.0, -6.5}, 1.0, {1.0, 0.0}, open_below, 100.0));
    }
    SUBCASE("a disk larger than the arc's radius meets it from the concave side by the ends") {
        const Arc small = arc_of({0.0, 0.0}, 1.0, 0.0, 180.0);
        const auto hit = toi_disk_arc({0.0, -10.0}, 2.0, {0.0, 1.0}, small, 100.0);
        REQUIRE(hit);
        // The end circles at (±1, 0) of radius 2: y = -sqrt(3).
        CHECK(hit->t == doctest::Approx(10.0 - std::sqrt(3.0)));
    }
}

TEST_CASE("a one-sided arc (bias) is hit from its front only and pushes out what is just behind") {
    const Arc top = arc_of({0.0, 0.0}, 5.0, -45.0, 135.0);
    // bias > 0: facing left of its travel, the inside.
    CHECK(toi_disk_arc({0.0, 0.0}, 1.0, {0.0, 2.0}, top, 100.0, 0, 2.0));
    CHECK_FALSE(toi_disk_arc({0.0, 10.0}, 1.0, {0.0, -1.0}, top, 100.0, 0, 2.0));
    // bias < 0: the outside.
    CHECK(toi_disk_arc({0.0, 10.0}, 1.0, {0.0, -1.0}, top, 100.0, 0, -2.0));
    CHECK_FALSE(toi_disk_arc({0.0, 0.0}, 1.0, {0.0, 2.0}, top, 100.0, 0, -2.0));
    // Just behind the face (within |bias|): pushed to the front; far behind: apart.
    const Proximity near = proximity_disk_arc({0.0, 5.5}, 1.0, top, 2.0);
    CHECK(near.separation == doctest::Approx(-1.5));
    CHECK_VEC_NEAR(near.normal, (Vec2{0.0, -1.0}), 1e-12);
    CHECK(proximity_disk_arc({0.0, 8.0}, 1.0, top, 2.0).separation == INFINITY);

    const Segment floor{{-10.0, 0.0}, {10.0, 0.0}};
    CHECK(toi_disk_segment({0.0, 5.0}, 1.0, {0.0, -1.0}, floor, 100.0, 0, 1.0));
    CHECK_FALSE(toi_disk_segment({0.0, -5.0}, 1.0, {0.0, 1.0}, floor, 100.0, 0, 1.0));
    CHECK(toi_disk_segment({0.0, -5.0}, 1.0, {0.0, 1.0}, floor, 100.0, 0, -1.0));
    // No end circles: a path past the end of a one-sided segment goes on.
    CHECK_FALSE(toi_disk_segment({10.5, 5.0}, 1.0, {0.0, -1.0}, floor, 100.0, 0, 1.0));
    CHECK(toi_disk_segment({10.5, 5.0}, 1.0, {0.0, -1.0}, floor, 100.0));
}

TEST_CASE("a plane keeps disks on its side from any depth") {
    const Plane ground{{0.0, 1.0}, -2.0};
    const auto hit = toi_disk_plane({3.0, 8.0}, 1.0, {0.0, -3.0}, ground, 100.0);
    REQUIRE(hit);
    CHECK(hit->t == doctest::Approx(3.0));
    CHECK_FALSE(toi_disk_plane({3.0, 8.0}, 1.0, {0.0, 3.0}, ground, 100.0));

    World w;
    PlaneDef def;
    def.plane = {{0.0, 2.0}, -2.0};  // normalised at creation
    (void)w.create_plane(def);
    const BodyId deep = w.create_disk(disk_def({0.0, -500.0}, {}, 1.0));
    const BodyId falling = w.create_disk(disk_def({40.0, 10.0}, {0.0, -6000.0}, 1.0));
    w.step();
    CHECK(w.disk(deep).position.y == doctest::Approx(-1.0));
    CHECK(w.disk(falling).position.y >= -1.0 - 1e-9);
    CHECK(w.disk(falling).velocity.y > 0.0);
}

// Property: disks shot inside a closed ring of arcs, at any speed of the
// domain and at every angle (grazing ones included), never leave it; disks
// shot at it from outside never get in. Restitution 1: kinetic energy is kept.
TEST_CASE("no disk passes through a ring of arcs, from inside or outside, at any speed") {
    test::XorShift32 rng(test_seed("ring of arcs"));
    const Vec2 center{rng.uniform(-1000.0, 1000.0), rng.uniform(-1000.0, 1000.0)};
    constexpr double kRingRadius = 50.0;
    int failures = 0;
    double worst_energy_drift = 0.0;
    for (int shot = 0; shot < 300; ++shot) {
        World w;
        add_ring(w, center, kRingRadius, 2 + static_cast<int>(rng.unit() * 5.0));
        const double radius = rng.uniform(0.1, 5.0);
        // From a radius a tick to the fastest the domain allows (250 000 radii a tick).
        const double speed = std::exp(
            rng.uniform(std::log(radius / kTick), std::log(domain::max_speed(radius, kTick))));
        const bool inside = rng.unit() < 0.6;
        const double from = inside ? rng.uniform(0.0, kRingRadius - radius - 1e-6)
                                   : rng.uniform(kRingRadius + radius + 1e-6, 4.0 * kRingRadius);
        const double heading = rng.uniform(0.0, 360.0);
        const Vec2 start = on_circle(center, from, rng.uniform(0.0, 360.0));
        // Half of the shots graze: along the tangent of the circle through the start.
        Vec2 direction = on_circle({}, 1.0, heading);
        if (rng.unit() < 0.5) {
            const Vec2 radial = normalize_or(start - center, {1.0, 0.0});
            const double lean = std::exp(rng.uniform(std::log(1e-10), std::log(1e-2)));
            direction = perp(radial) * std::cos(lean) + radial * (inside ? lean : -lean);
        }
        const BodyId id = w.create_disk(disk_def(start, direction * speed, radius));
        const double energy = test::kinetic_energy(w);
        for (int tick = 0; tick < 20; ++tick) {
            w.step();
            const double distance = length(w.disk(id).position - center);
            const bool kept = inside ? distance <= kRingRadius - radius + 1e-6 * radius
                                     : distance >= kRingRadius + radius - 1e-6 * radius;
            if (!kept && ++failures <= 5) {
                INFO("shot " << shot << " tick " << tick << " "
                             << std::string(inside ? "inside" : "outside") << ", radius " << radius
                             << ", speed " << speed << ", distance " << distance << ", start "
                             << start << ", velocity " << direction * speed << ", pieces "
                             << w.statics().size());
                CHECK(kept);
            }
        }
        if (w.last_step_stats().parked_disks == 0) {
            const double drift = std::abs(test::kinetic_energy(w) - energy) / energy;
            worst_energy_drift = std::max(worst_energy_drift, drift);
        }
    }
    MESSAGE("worst relative change of kinetic energy: " << worst_energy_drift);
    CHECK(failures == 0);
    CHECK(worst_energy_drift < 1e-9);
}

// Where a floor runs on into an arc tangentially, a disk sliding along the
// floor crosses the joint without a kick from an end circle: over a convex
// joint it flies on untouched; into a concave one it follows the arc in
// bounces along its radius without losing speed (restitution 1). Entering
// the curve tangentially, a straight path sinks into it by at most
// travel² / (2 (R - r)) in a tick before it is lifted out (the approach
// speed at the touch is zero, so there is no impact to stop it).
TEST_CASE("a disk slides smoothly where an arc meets a segment") {
    SUBCASE("convex: the arc falls away") {
        World w;
        (void)w.create_segment(segment_def({-50.0, 0.0}, {0.0, 0.0}));
        (void)w.create_arc(arc_def(Arc{{0.0, -10.0}, 10.0, {10.0, -10.0}, {0.0, 0.0}}));
        const BodyId id = w.create_disk(disk_def({-20.0, 1.0}, {20.0, 0.0}, 1.0));
        for (int tick = 0; tick < 120; ++tick) {
            w.step();
            CHECK(w.contacts().empty());
        }
        CHECK(w.disk(id).position.y == 1.0);
        CHECK(w.disk(id).velocity == (Vec2{20.0, 0.0}));
    }
    SUBCASE("concave: the arc rises ahead") {
        World w;
        (void)w.create_segment(segment_def({-50.0, 0.0}, {0.0, 0.0}));
        (void)w.create_arc(arc_def(Arc{{0.0, 10.0}, 10.0, {0.0, 0.0}, {10.0, 10.0}}));
        const BodyId id = w.create_disk(disk_def({-20.0, 1.0}, {20.0, 0.0}, 1.0));
        for (int tick = 0; tick < 90; ++tick) {
            w.step();
            const DiskState& d = w.disk(id);
            // On the floor's side of the floor and inside the arc's circle.
            CHECK(d.position.y >= 1.0 - 1e-9);
            const double travel = 20.0 * kTick;
            if (d.position.x > 0.0 && d.position.y < 10.0)
                CHECK(length(d.position - Vec2{0.0, 10.0}) <=
                      9.0 + travel * travel / (2.0 * 9.0) * (1.0 + 1e-6));
            CHECK(length(d.velocity) == doctest::Approx(20.0).epsilon(1e-12));
            for (const Contact& c : w.contacts()) {
                // Every impact on the arc pushes along its radius.
                CHECK(c.other.kind == ShapeKind::arc);
                CHECK_VEC_NEAR(c.normal, normalize_or(Vec2{0.0, 10.0} - c.point, {}), 1e-9);
            }
        }
        CHECK(w.disk(id).position.x > 0.0);
    }
}

TEST_CASE("arcs and planes are refused at creation when they are not shapes") {
    World w;
    CHECK_THROWS_AS((void)w.create_arc(arc_def(Arc{{0.0, 0.0}, 5.0, {5.0, 0.0}, {5.0, 0.0}})),
                    std::invalid_argument);
    CHECK_THROWS_AS((void)w.create_arc(arc_def(Arc{{0.0, 0.0}, 5.0, {5.0, 0.0}, {0.0, 6.0}})),
                    std::invalid_argument);
    CHECK_THROWS_AS((void)w.create_arc(arc_def(Arc{{0.0, 0.0}, -5.0, {5.0, 0.0}, {0.0, 5.0}})),
                    std::invalid_argument);
    CHECK_THROWS_AS((void)w.create_arc(arc_def(Arc{{0.0, 0.0}, 5.0, {5.0, 0.0}, {0.0, 5.0}}, NAN)),
                    std::invalid_argument);
    PlaneDef zero;
    zero.plane.normal = {0.0, 0.0};
    CHECK_THROWS_AS((void)w.create_plane(zero), std::invalid_argument);
}

TEST_CASE("worlds without arcs and planes hash as before, and arcs and planes are hashed") {
    World w;
    (void)w.create_segment(segment_def({0.0, 0.0}, {1.0, 0.0}));
    const std::uint64_t before = w.state_hash();
    World with_arc = w;
    (void)with_arc.create_arc(arc_def(arc_of({0.0, 0.0}, 5.0, 0.0, 90.0)));
    World other_arc = w;
    (void)other_arc.create_arc(arc_def(arc_of({0.0, 0.0}, 5.0, 0.0, 91.0)));
    CHECK(with_arc.state_hash() != before);
    CHECK(with_arc.state_hash() != other_arc.state_hash());
    World biased = w;
    SegmentDef one_sided = segment_def({0.0, 0.0}, {1.0, 0.0});
    one_sided.bias = 1.0;
    (void)biased.create_segment(one_sided);
    World two_sided = w;
    (void)two_sided.create_segment(segment_def({0.0, 0.0}, {1.0, 0.0}));
    CHECK(biased.state_hash() != two_sided.state_hash());
}
