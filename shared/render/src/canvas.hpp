#pragma once
// The arena as a canvas of square dots, 2 × 4 per cell (a cell is about
// twice as tall as wide, so the dots are square): shapes are rasterised into
// it, each dot keeping the highest ink that covers it.
#include <cstdint>
#include <vector>

#include "carom/game/map.hpp"
#include "carom/render/grid.hpp"

namespace carom::render {

inline constexpr int kDotsX = 2;
inline constexpr int kDotsY = 4;

class Canvas {
  public:
    // `cells_x` × `cells_y` cells showing `bounds` (map units), scaled to fit and centred.
    Canvas(int cells_x, int cells_y, game::Vec2 bounds_min, game::Vec2 bounds_max);

    // `rgb`: the shape's own colour (0xRRGGBB), else kInkColour.
    void box(const game::Box& box, Ink ink);
    void segment(const game::Segment& segment, Ink ink, std::uint32_t rgb = kInkColour);
    void arc(const physics::Arc& arc, Ink ink, std::uint32_t rgb = kInkColour);
    void disk(game::Vec2 centre, double radius, Ink ink, std::uint32_t rgb = kInkColour);

    int dots_x() const { return dots_x_; }
    int dots_y() const { return dots_y_; }
    Ink at(int i, int j) const { return dots_[index(i, j)]; }
    std::uint32_t rgb_at(int i, int j) const { return colours_[index(i, j)]; }

  private:
    struct Range {
        int i0, i1, j0, j1;  // inclusive dot ranges; empty when i0 > i1 or j0 > j1
    };
    Range range_of(game::Vec2 lo, game::Vec2 hi) const;
    game::Vec2 centre_of(int i, int j) const;
    std::size_t index(int i, int j) const {
        return static_cast<std::size_t>(j) * static_cast<std::size_t>(dots_x_) +
               static_cast<std::size_t>(i);
    }
    // The higher ink wins a dot, with its colour; on a tie the first drawn.
    void mark(int i, int j, Ink ink, std::uint32_t rgb);
    // Marks the dots within half a line's width of a line (straight or
    // curved) inside `bounds`, whose point nearest p is closest(p).
    template <class Closest>
    void stroke(const physics::Aabb& bounds, Closest&& closest, Ink ink, std::uint32_t rgb);

    int dots_x_;
    int dots_y_;
    game::Vec2 min_;
    game::Vec2 max_;
    double scale_;     // dots per map unit
    double offset_x_;  // dots left of the bounds (centring)
    double offset_y_;
    std::vector<Ink> dots_;
    std::vector<std::uint32_t> colours_;
};

}  // namespace carom::render
