#include "cell_grid.hpp"

#include <cmath>

namespace carom::physics::detail {

void CellGrid::build(std::span<const Aabb> boxes, std::span<const std::uint8_t> present,
                     double cell_size) {
    boxes_ = boxes;
    present_ = present;
    const std::size_t n = boxes.size();
    large_.clear();
    entries_.clear();
    width_ = height_ = 0;

    Aabb bounds{{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    std::size_t count = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!present[i]) continue;
        bounds.min.x = std::min(bounds.min.x, boxes[i].min.x);
        bounds.min.y = std::min(bounds.min.y, boxes[i].min.y);
        bounds.max.x = std::max(bounds.max.x, boxes[i].max.x);
        bounds.max.y = std::max(bounds.max.y, boxes[i].max.y);
        ++count;
    }
    if (count == 0) return;

    // Keep the cell count near 4 per box: a far outlier coarsens the grid
    // instead of allocating an enormous one.
    const double span_x = bounds.max.x - bounds.min.x;
    const double span_y = bounds.max.y - bounds.min.y;
    const double max_cells = 4.0 * static_cast<double>(count) + 64.0;
    cell_size = std::max(cell_size, std::sqrt(span_x * span_y / max_cells));
    cell_size = std::max({cell_size, span_x / max_cells, span_y / max_cells});
    origin_ = bounds.min;
    inv_cell_size_ = 1.0 / cell_size;
    width_ = static_cast<std::uint32_t>(std::min(span_x * inv_cell_size_, max_cells)) + 1;
    height_ = static_cast<std::uint32_t>(std::min(span_y * inv_cell_size_, max_cells)) + 1;

    const std::size_t cells = std::size_t{width_} * height_;
    cell_start_.assign(cells + 1, 0u);
    ranges_.resize(n);
    is_large_.assign(n, 0u);

    // Count entries per cell (shifted by one for the prefix sum).
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!present[i]) continue;
        const CellRange r = clamped_cells(boxes[i]);
        ranges_[i] = r;
        if (r.count() > kMaxCellsPerItem) {
            is_large_[i] = 1;
            large_.push_back(i);
            continue;
        }
        for (std::int32_t cy = r.y0; cy <= r.y1; ++cy) {
            for (std::int32_t cx = r.x0; cx <= r.x1; ++cx)
                ++cell_start_[cell_index(cx, cy) + 1];
        }
    }
    for (std::size_t c = 0; c < cells; ++c)
        cell_start_[c + 1] += cell_start_[c];

    entries_.resize(cell_start_[cells]);
    fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!present[i] || is_large_[i]) continue;
        const CellRange r = ranges_[i];
        const FloatBox box = widen_to_float(boxes[i]);
        for (std::int32_t cy = r.y0; cy <= r.y1; ++cy) {
            for (std::int32_t cx = r.x0; cx <= r.x1; ++cx) {
                entries_[fill_[cell_index(cx, cy)]++] = {box, i, r.x0, r.y0};
            }
        }
    }
}

}  // namespace carom::physics::detail
