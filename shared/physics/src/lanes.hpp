#pragma once
// Two doubles side by side, the x and y of a Vec2, held in one SSE2 register
// where the target has them: the sweep's pair filters, run on every pair of
// neighbours, then work on both coordinates at once. Each operation is the
// same IEEE operation, lane by lane, as Vec2's, and a sum adds lane x and
// lane y in that order, as dot() does: the results are the same bits.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cmath>

#include "carom/physics/geometry.hpp"
#include "carom/physics/vec2.hpp"

namespace carom::physics::detail {

#if defined(__SSE2__)

class Lanes {
  public:
    static Lanes load(const Vec2& v) { return Lanes(_mm_loadu_pd(&v.x)); }
    static Lanes splat(double s) { return Lanes(_mm_set1_pd(s)); }

    friend Lanes operator+(Lanes a, Lanes b) { return Lanes(_mm_add_pd(a.v_, b.v_)); }
    friend Lanes operator-(Lanes a, Lanes b) { return Lanes(_mm_sub_pd(a.v_, b.v_)); }
    friend Lanes operator*(Lanes a, Lanes b) { return Lanes(_mm_mul_pd(a.v_, b.v_)); }
    Lanes abs() const { return Lanes(_mm_andnot_pd(_mm_set1_pd(-0.0), v_)); }
    double sum() const { return _mm_cvtsd_f64(_mm_add_sd(v_, _mm_unpackhi_pd(v_, v_))); }
    // Whether a <= b in both lanes.
    friend bool both_at_most(Lanes a, Lanes b) {
        return _mm_movemask_pd(_mm_cmple_pd(a.v_, b.v_)) == 3;
    }

  private:
    explicit Lanes(__m128d v) : v_(v) {}
    __m128d v_;
};

#else

class Lanes {
  public:
    static Lanes load(const Vec2& v) { return Lanes(v); }
    static Lanes splat(double s) { return Lanes({s, s}); }

    friend Lanes operator+(Lanes a, Lanes b) { return Lanes(a.v_ + b.v_); }
    friend Lanes operator-(Lanes a, Lanes b) { return Lanes(a.v_ - b.v_); }
    friend Lanes operator*(Lanes a, Lanes b) { return Lanes({a.v_.x * b.v_.x, a.v_.y * b.v_.y}); }
    Lanes abs() const { return Lanes({std::abs(v_.x), std::abs(v_.y)}); }
    double sum() const { return v_.x + v_.y; }
    friend bool both_at_most(Lanes a, Lanes b) { return (a.v_.x <= b.v_.x) & (a.v_.y <= b.v_.y); }

  private:
    explicit Lanes(Vec2 v) : v_(v) {}
    Vec2 v_;
};

#endif

inline double dot(Lanes a, Lanes b) {
    return (a * b).sum();
}

// overlaps(a, b), two coordinates at a time.
inline bool overlaps_by_lanes(const Aabb& a, const Aabb& b) {
    const bool low = both_at_most(Lanes::load(a.min), Lanes::load(b.max));
    const bool high = both_at_most(Lanes::load(b.min), Lanes::load(a.max));
    return low & high;
}

}  // namespace carom::physics::detail
