#include "arc.hpp"

#include <cmath>
#include <utility>

#include "carom/stadium/hbs.hpp"

namespace carom::stadium {
namespace {

// sin and cos of x (radians, |x| <= pi) by their Taylor series, summed
// until the terms vanish: + - * / only, the same bits everywhere.
void sin_cos(double x, double& s, double& c) {
    double term_s = x, term_c = 1.0;
    s = 0.0;
    c = 0.0;
    for (int k = 1; k < 40; ++k) {
        s += term_s;
        c += term_c;
        term_s = -term_s * x * x / ((2.0 * k) * (2.0 * k + 1.0));
        term_c = -term_c * x * x / ((2.0 * k - 1.0) * (2.0 * k));
    }
}

}  // namespace

double cot_half_degrees(double degrees) {
    constexpr double kPi = 3.141592653589793238462643383279502884;
    const double half = degrees * (kPi / 360.0);
    double s = 0.0, c = 0.0;
    sin_cos(half, s, c);
    return c / s;
}

namespace detail {

Status bend(game::Wall& w, double curve_degrees, double curve_f) {
    if (curve_f == 0.0 && curve_degrees != 0.0) {
        if (!(std::abs(curve_degrees) < 360.0)) return fail("must be within (-360, 360) degrees");
        if (curve_degrees < 0.0) {  // HaxBall's rule: the other way round, and the bias with it
            std::swap(w.a, w.b);
            w.bias = 0.0 - w.bias;  // not -bias: a bias of 0 stays +0, not -0
            curve_degrees = -curve_degrees;
        }
        curve_f = cot_half_degrees(curve_degrees);
    }
    if (curve_f != 0.0) {
        // The centre lies left of a -> b, curve_f half-chords from the
        // chord's middle: the arc runs counterclockwise from a to b.
        const game::Vec2 half = (w.b - w.a) * 0.5;
        w.shape = game::Wall::Shape::arc;
        w.center = w.a + half + game::Vec2{-half.y, half.x} * curve_f;
    }
    return {};
}

}  // namespace detail
}  // namespace carom::stadium
