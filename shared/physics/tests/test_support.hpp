#pragma once
// Helpers shared by the physics tests: printing Vec2 in failure messages,
// approximate vector comparison, a seeded PRNG and small world builders.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "carom/physics/defs.hpp"
#include "carom/physics/vec2.hpp"
#include "carom/physics/world.hpp"

namespace doctest {
template <>
struct StringMaker<carom::physics::Vec2> {
    static String convert(const carom::physics::Vec2& v) {
        std::ostringstream os;
        os.precision(17);
        os << "{" << v.x << ", " << v.y << "}";
        return String(os.str().c_str());
    }
};
}  // namespace doctest

namespace carom::physics::test {

// Absolute comparison of both components (doctest::Approx with scale 1 is
// absolute for values below 1 and relative above, which is what we want).
#define CHECK_VEC_NEAR(actual, expected, eps)                                  \
    do {                                                                       \
        const ::carom::physics::Vec2 check_vec_a_ = (actual);                  \
        const ::carom::physics::Vec2 check_vec_e_ = (expected);                \
        INFO("actual " << check_vec_a_ << ", expected " << check_vec_e_);      \
        CHECK(check_vec_a_.x == doctest::Approx(check_vec_e_.x).epsilon(eps)); \
        CHECK(check_vec_a_.y == doctest::Approx(check_vec_e_.y).epsilon(eps)); \
    } while (false)

#define REQUIRE_VEC_NEAR(actual, expected, eps)                                  \
    do {                                                                         \
        const ::carom::physics::Vec2 check_vec_a_ = (actual);                    \
        const ::carom::physics::Vec2 check_vec_e_ = (expected);                  \
        INFO("actual " << check_vec_a_ << ", expected " << check_vec_e_);        \
        REQUIRE(check_vec_a_.x == doctest::Approx(check_vec_e_.x).epsilon(eps)); \
        REQUIRE(check_vec_a_.y == doctest::Approx(check_vec_e_.y).epsilon(eps)); \
    } while (false)

// Marsaglia's xorshift32: tiny, seedable, the same on every platform.
class XorShift32 {
  public:
    explicit XorShift32(std::uint32_t seed) : state_(seed == 0 ? 0x9E3779B9u : seed) {}
    std::uint32_t next() {
        std::uint32_t x = state_;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        state_ = x;
        return x;
    }
    // Uniform in [0, 1).
    double unit() { return static_cast<double>(next()) / 4294967296.0; }
    // Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }

  private:
    std::uint32_t state_;
};

inline double kinetic_energy(const World& w) {
    double e = 0.0;
    for (BodyId id : w.disks()) {
        const DiskState& d = w.disk(id);
        if (d.inverse_mass == 0.0) continue;
        e += 0.5 * length_squared(d.velocity) / d.inverse_mass;
    }
    return e;
}

inline Vec2 momentum(const World& w) {
    Vec2 p{};
    for (BodyId id : w.disks()) {
        const DiskState& d = w.disk(id);
        if (d.inverse_mass == 0.0) continue;
        p += d.velocity / d.inverse_mass;
    }
    return p;
}

inline DiskDef disk_def(Vec2 position, Vec2 velocity, double radius = 1.0, double mass = 1.0) {
    DiskDef d;
    d.position = position;
    d.velocity = velocity;
    d.radius = radius;
    d.mass = mass;
    return d;
}

inline BoxDef box_def(Vec2 center, Vec2 half_extents, Vec2 axis = {1.0, 0.0}) {
    BoxDef b;
    b.box.center = center;
    b.box.half_extents = half_extents;
    b.box.axis = axis;
    return b;
}

inline SegmentDef segment_def(Vec2 a, Vec2 b) {
    SegmentDef s;
    s.segment.a = a;
    s.segment.b = b;
    return s;
}

}  // namespace carom::physics::test
