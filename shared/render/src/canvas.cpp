#include "canvas.hpp"

#include <algorithm>
#include <cmath>

#include "carom/physics/geometry.hpp"

namespace carom::render {
namespace {

// Lines (segments, goal mouths) are drawn this many dots thick, so a
// diagonal stays connected.
constexpr double kLineDots = 1.5;

}  // namespace

Canvas::Canvas(int cells_x, int cells_y, game::Vec2 bounds_min, game::Vec2 bounds_max)
    : dots_x_(std::max(cells_x, 0) * kDotsX),
      dots_y_(std::max(cells_y, 0) * kDotsY),
      min_(bounds_min),
      max_(bounds_max),
      dots_(static_cast<std::size_t>(dots_x_) * static_cast<std::size_t>(dots_y_), Ink::none),
      colours_(dots_.size(), kInkColour) {
    const double w = std::max(max_.x - min_.x, 1e-9);
    const double h = std::max(max_.y - min_.y, 1e-9);
    scale_ = std::min(dots_x_ / w, dots_y_ / h);
    offset_x_ = (dots_x_ - w * scale_) / 2.0;
    offset_y_ = (dots_y_ - h * scale_) / 2.0;
}

game::Vec2 Canvas::centre_of(int i, int j) const {
    // Screen rows go down, map y goes up.
    return {min_.x + (i + 0.5 - offset_x_) / scale_, max_.y - (j + 0.5 - offset_y_) / scale_};
}

Canvas::Range Canvas::range_of(game::Vec2 lo, game::Vec2 hi) const {
    const auto clamp_i = [](double v, int n) {
        return static_cast<int>(std::clamp(std::floor(v), -1.0, static_cast<double>(n)));
    };
    Range r{};
    r.i0 = std::max(clamp_i((lo.x - min_.x) * scale_ + offset_x_, dots_x_), 0);
    r.i1 = std::min(clamp_i((hi.x - min_.x) * scale_ + offset_x_, dots_x_), dots_x_ - 1);
    r.j0 = std::max(clamp_i((max_.y - hi.y) * scale_ + offset_y_, dots_y_), 0);
    r.j1 = std::min(clamp_i((max_.y - lo.y) * scale_ + offset_y_, dots_y_), dots_y_ - 1);
    return r;
}

void Canvas::mark(int i, int j, Ink ink, std::uint32_t rgb) {
    const std::size_t at = index(i, j);
    if (ink > dots_[at]) {
        dots_[at] = ink;
        colours_[at] = rgb;
    }
}

void Canvas::box(const game::Box& b, Ink ink) {
    // A wall thinner than a dot still shows: extents of at least half a dot.
    const double half_dot = 0.5 / scale_;
    const double hx = std::max(b.half_extents.x, half_dot);
    const double hy = std::max(b.half_extents.y, half_dot);
    const physics::Aabb a = physics::bounds_of(game::Box{b.center, {hx, hy}, b.axis});
    const Range r = range_of(a.min, a.max);
    for (int j = r.j0; j <= r.j1; ++j) {
        for (int i = r.i0; i <= r.i1; ++i) {
            const game::Vec2 d = centre_of(i, j) - b.center;
            const double lx = physics::dot(d, b.axis);
            const double ly = physics::dot(d, physics::perp(b.axis));
            if (std::abs(lx) <= hx && std::abs(ly) <= hy) mark(i, j, ink, kInkColour);
        }
    }
}

template <class Closest>
void Canvas::stroke(const physics::Aabb& bounds, Closest&& closest, Ink ink, std::uint32_t rgb) {
    const double reach = kLineDots / 2.0 / scale_;
    const game::Vec2 pad{reach, reach};
    const Range r = range_of(bounds.min - pad, bounds.max + pad);
    for (int j = r.j0; j <= r.j1; ++j) {
        for (int i = r.i0; i <= r.i1; ++i) {
            const game::Vec2 p = centre_of(i, j);
            if (physics::length_squared(closest(p) - p) <= reach * reach) mark(i, j, ink, rgb);
        }
    }
}

void Canvas::segment(const game::Segment& s, Ink ink, std::uint32_t rgb) {
    stroke(
        physics::bounds_of(s), [&s](game::Vec2 p) { return physics::closest_point(s, p); }, ink,
        rgb);
}

void Canvas::arc(const physics::Arc& a, Ink ink, std::uint32_t rgb) {
    stroke(
        physics::bounds_of(a), [&a](game::Vec2 p) { return physics::closest_point(a, p); }, ink,
        rgb);
}

void Canvas::disk(game::Vec2 c, double radius, Ink ink, std::uint32_t rgb) {
    const game::Vec2 pad{radius, radius};
    const Range r = range_of(c - pad, c + pad);
    bool any = false;
    for (int j = r.j0; j <= r.j1; ++j) {
        for (int i = r.i0; i <= r.i1; ++i) {
            if (physics::length_squared(centre_of(i, j) - c) <= radius * radius) {
                mark(i, j, ink, rgb);
                any = true;
            }
        }
    }
    // A disk smaller than a dot is still drawn: the dot under its centre.
    if (!any) {
        const Range at = range_of(c, c);
        if (at.i0 <= at.i1 && at.j0 <= at.j1 && at.i0 == at.i1 && at.j0 == at.j1)
            mark(at.i0, at.j0, ink, rgb);
    }
}

}  // namespace carom::render
