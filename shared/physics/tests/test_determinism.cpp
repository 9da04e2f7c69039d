// The determinism contract: a fixed scene, stepped a fixed number of ticks,
// must end in the same state hash in every build (debug, release, sanitised,
// gcc, clang) and on every architecture. The expected constant is written
// here; a change to it is a change to the simulation and must be deliberate.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>

#include "carom/physics/world.hpp"

namespace carom::physics {
namespace {

// xorshift32; seed fixed so the scene is the same everywhere.
struct SceneRng {
    std::uint32_t state = 2024;
    double uniform() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return static_cast<double>(state >> 8) / 16777216.0;
    }
};

// A rink of every static kind with disks of every kind inside.
World make_mixed_scene() {
    World w;
    const StaticDef wall{};  // elastic
    const StaticDef sliding{Material{0.5, 0.2}, WallResponse::slide, Filter{}, 7};
    w.create_box({Box{{-5.0, 100.0}, {5.0, 110.0}}, wall});
    w.create_box({Box{{205.0, 100.0}, {5.0, 110.0}}, wall});
    w.create_segment({Segment{{0.0, 0.0}, {200.0, 0.0}}, wall});
    w.create_segment({Segment{{200.0, 200.0}, {0.0, 200.0}}, sliding});
    // Angled corners and an oriented box in the middle.
    w.create_segment({Segment{{0.0, 30.0}, {30.0, 0.0}}, wall});
    w.create_segment({Segment{{170.0, 200.0}, {200.0, 170.0}}, sliding});
    StaticDef lossy;
    lossy.material = {0.9, 0.1};
    w.create_box({Box{{100.0, 100.0}, {12.0, 4.0}, {0.6, 0.8}}, lossy});
    w.create_box({Box{{60.0, 140.0}, {6.0, 6.0}}, sliding});

    SceneRng rng;
    for (int i = 0; i < 160; ++i) {
        DiskDef d;
        d.position = {10.0 + 180.0 * rng.uniform(), 10.0 + 180.0 * rng.uniform()};
        d.velocity = {-300.0 + 600.0 * rng.uniform(), -300.0 + 600.0 * rng.uniform()};
        d.radius = 1.0 + 3.0 * rng.uniform();
        d.mass = i % 40 == 0 ? kInfiniteMass : d.radius * d.radius;
        d.material = {0.5 + 0.5 * rng.uniform(), i % 3 == 0 ? 0.3 : 0.0};
        d.filter = {i % 7 == 0 ? 2u : 1u, 0xFFFFFFFFu};
        d.user_data = static_cast<std::uint64_t>(i);
        w.create_disk(d);  // overlapping starts are intended: the solver must separate them
    }
    // A bullet: hundreds of radii per tick.
    w.create_disk({{100.0, 20.0}, {30000.0, 17000.0}, 0.5, 1.0, {1.0, 0.0}, {}, 999});
    return w;
}

constexpr std::uint64_t kExpectedHash = 0xe14a1e7f3d921ea4;
constexpr int kTicks = 600;

TEST_CASE("mixed scene reaches the recorded state hash after 600 ticks in every build") {
    World w = make_mixed_scene();
    for (int t = 0; t < kTicks; ++t)
        w.step();
    const std::uint64_t hash = w.state_hash();
    char hex[19];
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(hash));
    INFO("state hash after " << kTicks << " ticks: " << hex);
    CHECK(hash == kExpectedHash);
}

TEST_CASE("a copied world steps to the same hash as the original") {
    World a = make_mixed_scene();
    for (int t = 0; t < 100; ++t)
        a.step();
    World b = a;
    for (int t = 0; t < 200; ++t) {
        a.step();
        b.step();
    }
    CHECK(a.state_hash() == b.state_hash());
    REQUIRE(a.contacts().size() == b.contacts().size());
    for (std::size_t i = 0; i < a.contacts().size(); ++i) {
        CHECK(a.contacts()[i].disk == b.contacts()[i].disk);
        CHECK(a.contacts()[i].other == b.contacts()[i].other);
        CHECK(a.contacts()[i].time == b.contacts()[i].time);
    }
}

}  // namespace
}  // namespace carom::physics
