#pragma once
// Cell arithmetic shared by the broadphase grids.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "carom/physics/geometry.hpp"

namespace carom::physics::detail {

// Boxes spanning more cells than this are kept on a list that every query
// checks directly, so one very fast disk does not fill thousands of cells.
inline constexpr std::int64_t kMaxCellsPerItem = 64;

struct CellRange {
    std::int32_t x0, y0, x1, y1;
    std::int64_t count() const { return (std::int64_t{x1} - x0 + 1) * (std::int64_t{y1} - y0 + 1); }
};

// floor(v / cell) by truncation (std::floor is a library call on baseline
// x86-64), clamped so that far-away but finite positions still give a valid
// int32 cell; such cells merely share buckets.
inline std::int32_t to_cell(double v, double inv_cell_size) {
    constexpr double kLimit = 1 << 30;
    const double c = std::clamp(v * inv_cell_size, -kLimit, kLimit);
    const auto truncated = static_cast<std::int32_t>(c);
    return static_cast<double>(truncated) > c ? truncated - 1 : truncated;
}

inline CellRange cells_of(const Aabb& box, double inv_cell_size) {
    return {to_cell(box.min.x, inv_cell_size), to_cell(box.min.y, inv_cell_size),
            to_cell(box.max.x, inv_cell_size), to_cell(box.max.y, inv_cell_size)};
}

// A box rounded outwards to floats: half the memory of doubles, so more of a
// grid stays in cache, and never smaller than the real box.
struct FloatBox {
    float min_x, min_y, max_x, max_y;
};

inline FloatBox widen_to_float(const Aabb& box) {
    // Rounding to float moves a value by at most 2^-24 of it; widening first
    // by 2^-22 of it (plus a hair for values near zero) keeps the float box
    // outside the real one.
    constexpr double kRel = 1.0 / (1 << 22);
    constexpr double kAbs = 1e-30;
    auto down = [](double v) { return static_cast<float>(v - (std::abs(v) * kRel + kAbs)); };
    auto up = [](double v) { return static_cast<float>(v + (std::abs(v) * kRel + kAbs)); };
    return {down(box.min.x), down(box.min.y), up(box.max.x), up(box.max.y)};
}

inline std::uint32_t hash_cell(std::int32_t cx, std::int32_t cy, std::uint32_t mask) {
    const auto ux = static_cast<std::uint32_t>(cx);
    const auto uy = static_cast<std::uint32_t>(cy);
    return ((ux * 0x8DA6B343u) ^ (uy * 0xD8163841u)) & mask;
}

}  // namespace carom::physics::detail
