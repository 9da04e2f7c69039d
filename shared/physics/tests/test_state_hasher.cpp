// StateHasher (state_hasher.hpp) and World::state_hash(): every bit that influences the
// future changes the hash; equal states hash equal.
#include "carom/physics/state_hasher.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "carom/physics/world.hpp"
#include "test_support.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

using namespace carom::physics;
using test::box_def;
using test::disk_def;
using test::segment_def;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

World two_disk_world() {
    World w;
    (void)w.create_box(box_def({0.0, -5.0}, {50.0, 5.0}));
    (void)w.create_segment(segment_def({-50.0, 0.0}, {-50.0, 50.0}));
    (void)w.create_disk(disk_def({0.0, 10.0}, {3.0, -4.0}, 1.0, 2.0));
    (void)w.create_disk(disk_def({5.0, 10.0}, {-1.0, 0.5}, 0.5, 1.0));
    return w;
}
}  // namespace

TEST_CASE("StateHasher digest is XXH3-64 of the values as little-endian bytes") {
    StateHasher h;
    h.add(std::uint64_t{0x0102030405060708ull});
    h.add(1.5);  // 0x3FF8000000000000
    const std::uint8_t bytes[] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
                                  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x3F};
    CHECK(h.digest() == XXH3_64bits(bytes, sizeof bytes));
}

TEST_CASE("StateHasher distinguishes bit patterns, order and count") {
    auto digest = [](std::vector<double> vs) {
        StateHasher h;
        for (double v : vs)
            h.add(v);
        return h.digest();
    };
    CHECK(digest({1.0, 2.0}) == digest({1.0, 2.0}));
    CHECK(digest({0.0}) != digest({-0.0}));
    CHECK(digest({1.0, 2.0}) != digest({2.0, 1.0}));
    CHECK(digest({1.0}) != digest({1.0, 1.0}));
    CHECK(digest({1.0}) != digest({std::nextafter(1.0, 2.0)}));
    StateHasher a;
    a.add(std::uint32_t{5});
    StateHasher b;
    b.add(std::uint64_t{5});
    CHECK(a.digest() == b.digest());  // a uint32 is widened to 8 bytes
    StateHasher t;
    t.add(true);
    StateHasher f;
    f.add(false);
    CHECK(t.digest() != f.digest());
}

TEST_CASE("worlds built the same way have the same state hash") {
    CHECK(two_disk_world().state_hash() == two_disk_world().state_hash());
    CHECK(World{}.state_hash() == World{}.state_hash());
}

TEST_CASE("a one-ulp change of a disk's velocity or position changes the state hash") {
    World a = two_disk_world();
    const std::uint64_t h0 = a.state_hash();
    const BodyId id = a.disks()[1];
    const Vec2 v = a.disk(id).velocity;
    a.set_velocity(id, {std::nextafter(v.x, kInf), v.y});
    CHECK(a.state_hash() != h0);
    a.set_velocity(id, v);
    CHECK(a.state_hash() == h0);  // restoring the exact bits restores the hash

    const Vec2 p = a.disk(id).position;
    a.set_position(id, {p.x, std::nextafter(p.y, -kInf)});
    CHECK(a.state_hash() != h0);
}

TEST_CASE("a one-ulp change diverges two worlds' hashes for every later tick") {
    World a = two_disk_world();
    World b = two_disk_world();
    const BodyId id = b.disks()[0];
    const Vec2 v = b.disk(id).velocity;
    b.set_velocity(id, {v.x, std::nextafter(v.y, kInf)});
    for (int t = 0; t < 10; ++t) {
        a.step();
        b.step();
        CHECK(a.state_hash() != b.state_hash());
    }
}

TEST_CASE("negative zero and positive zero velocity hash differently") {
    World a;
    World b;
    (void)a.create_disk(disk_def({0.0, 0.0}, {0.0, 0.0}));
    (void)b.create_disk(disk_def({0.0, 0.0}, {-0.0, 0.0}));
    CHECK(a.state_hash() != b.state_hash());
}

TEST_CASE("the state hash covers every disk field") {
    const DiskDef base = disk_def({1.0, 2.0}, {3.0, 4.0}, 1.0, 2.0);
    auto hash_of = [](const DiskDef& d) {
        World w;
        (void)w.create_disk(d);
        return w.state_hash();
    };
    const std::uint64_t h0 = hash_of(base);
    DiskDef d = base;
    d.radius = std::nextafter(1.0, 2.0);
    CHECK(hash_of(d) != h0);
    d = base;
    d.mass = 3.0;
    CHECK(hash_of(d) != h0);
    d = base;
    d.material.restitution = 0.5;
    CHECK(hash_of(d) != h0);
    d = base;
    d.material.friction = 0.25;
    CHECK(hash_of(d) != h0);
    d = base;
    d.filter.layer = 2;
    CHECK(hash_of(d) != h0);
    d = base;
    d.filter.mask = 0xFFFFFFFEu;
    CHECK(hash_of(d) != h0);
    d = base;
    d.user_data = 1;
    CHECK(hash_of(d) != h0);
}

TEST_CASE("the state hash covers every static field") {
    const BoxDef base = box_def({1.0, 2.0}, {3.0, 4.0});
    auto hash_of = [](const BoxDef& b) {
        World w;
        (void)w.create_box(b);
        return w.state_hash();
    };
    const std::uint64_t h0 = hash_of(base);
    BoxDef b = base;
    b.box.half_extents.y = std::nextafter(4.0, 5.0);
    CHECK(hash_of(b) != h0);
    b = base;
    b.box.axis = {0.6, 0.8};
    CHECK(hash_of(b) != h0);
    b = base;
    b.common.response = WallResponse::slide;
    CHECK(hash_of(b) != h0);
    b = base;
    b.common.material.restitution = 0.5;
    CHECK(hash_of(b) != h0);
    b = base;
    b.common.filter.mask = 1;
    CHECK(hash_of(b) != h0);

    World seg_a;
    World seg_b;
    (void)seg_a.create_segment(segment_def({0.0, 0.0}, {1.0, 0.0}));
    (void)seg_b.create_segment(segment_def({0.0, 0.0}, {std::nextafter(1.0, 2.0), 0.0}));
    CHECK(seg_a.state_hash() != seg_b.state_hash());
}

TEST_CASE("the state hash covers the world settings and the tick") {
    WorldDef def;
    def.overlap_iterations = 9;
    CHECK(World{def}.state_hash() != World{}.state_hash());
    WorldDef tick_def;
    tick_def.tick_seconds = std::nextafter(1.0 / 60.0, 1.0);
    CHECK(World{tick_def}.state_hash() != World{}.state_hash());

    World w;
    const std::uint64_t h0 = w.state_hash();
    w.step();  // nothing moves, but the tick counter does
    CHECK(w.state_hash() != h0);
}

TEST_CASE("the state hash covers free slots and generations") {
    // a created-then-destroyed disk leaves a free slot: not the same as never having had it
    World empty;
    World freed;
    (void)freed.create_disk(disk_def({0.0, 0.0}, {0.0, 0.0}));
    freed.destroy(freed.disks()[0]);
    CHECK(freed.state_hash() != empty.state_hash());

    // same live disk, different generation of its slot
    World once;
    (void)once.create_disk(disk_def({0.0, 0.0}, {0.0, 0.0}));
    World twice;
    twice.destroy(twice.create_disk(disk_def({0.0, 0.0}, {0.0, 0.0})));
    const BodyId reused = twice.create_disk(disk_def({0.0, 0.0}, {0.0, 0.0}));
    if (reused.index == once.disks()[0].index) {
        CHECK(once.state_hash() != twice.state_hash());
    } else {
        MESSAGE("slot not reused; generation comparison not applicable");
    }
}
