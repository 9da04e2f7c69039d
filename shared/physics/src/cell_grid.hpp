#pragma once
// Broadphase for a set of boxes known all at once: a dense row-major grid
// over their common bounds, laid out flat (counting sort by cell) with each
// entry carrying its box, so pair finding walks memory in order and a query
// touches a few short contiguous runs.
//
// Built once per use; to change a box, callers mask the item out of query
// results and keep its new box elsewhere (the sweep uses a HashGrid).
// Candidates are a superset: boxes that overlap are always reported, boxes a
// float's rounding apart may be too (callers test the shapes exactly).
// Each overlapping pair, and each query result, is reported exactly once:
// in the first cell (lowest x, then y) of the overlap of the two cell ranges.
// The cell size only affects speed, never what is reported.
#include <cstdint>
#include <span>
#include <vector>

#include "cell_math.hpp"

namespace carom::physics::detail {

// A comparison as 0 or 1, so that several can be combined without branches.
constexpr unsigned bit(bool b) { return b ? 1u : 0u; }

class CellGrid {
  public:
    // `present[i]` says whether boxes[i] takes part. The grid may use larger
    // cells than asked, to keep its cell count proportional to the boxes.
    void build(std::span<const Aabb> boxes, std::span<const std::uint8_t> present,
               double cell_size);

    // Calls visit(i, j), i < j, once for each pair of overlapping boxes.
    template <class Visit>
    void for_each_pair(Visit&& visit) const;

    // Calls visit(i) once for each box overlapping `box`.
    template <class Visit>
    void query(const Aabb& box, Visit&& visit) const;

  private:
    // Boxes are stored as floats rounded outwards: half the memory, so more
    // of the grid stays in cache, and still never smaller than the real box.
    struct FloatBox {
        float min_x, min_y, max_x, max_y;
    };
    struct Entry {
        FloatBox box;
        std::uint32_t item;
        std::int32_t x0, y0;  // the first cell of the item's range
    };
    static FloatBox widen_to_float(const Aabb& box);
    static bool overlaps(const FloatBox& a, const FloatBox& b) {
        return a.min_x <= b.max_x && b.min_x <= a.max_x && a.min_y <= b.max_y && b.min_y <= a.max_y;
    }

    CellRange clamped_cells(const Aabb& box) const {
        const Aabb local{box.min - origin_, box.max - origin_};
        CellRange r = cells_of(local, inv_cell_size_);
        const auto max_x = static_cast<std::int32_t>(width_) - 1;
        const auto max_y = static_cast<std::int32_t>(height_) - 1;
        r.x0 = std::clamp(r.x0, 0, max_x);
        r.x1 = std::clamp(r.x1, 0, max_x);
        r.y0 = std::clamp(r.y0, 0, max_y);
        r.y1 = std::clamp(r.y1, 0, max_y);
        return r;
    }
    std::uint32_t cell_index(std::int32_t cx, std::int32_t cy) const {
        return static_cast<std::uint32_t>(cy) * width_ + static_cast<std::uint32_t>(cx);
    }

    std::span<const Aabb> boxes_;
    std::span<const std::uint8_t> present_;
    Vec2 origin_;
    double inv_cell_size_ = 1.0;
    std::uint32_t width_ = 0, height_ = 0;
    std::vector<std::uint32_t> cell_start_;  // cell c holds entries [start[c], start[c+1])
    std::vector<std::uint32_t> fill_;
    std::vector<Entry> entries_;
    std::vector<CellRange> ranges_;
    std::vector<std::uint32_t> large_;  // ascending
    std::vector<std::uint8_t> is_large_;
};

template <class Visit>
void CellGrid::for_each_pair(Visit&& visit) const {
    for (std::uint32_t cy = 0; cy < height_; ++cy) {
        for (std::uint32_t cx = 0; cx < width_; ++cx) {
            const std::uint32_t c = cy * width_ + cx;
            const std::uint32_t end = cell_start_[c + 1];
            const auto cell_x = static_cast<std::int32_t>(cx);
            const auto cell_y = static_cast<std::int32_t>(cy);
            for (std::uint32_t k = cell_start_[c]; k < end; ++k) {
                const Entry& e = entries_[k];
                for (std::uint32_t l = k + 1; l < end; ++l) {
                    const Entry& f = entries_[l];
                    // Evaluated without early exits: most candidates fail, and
                    // a single well-predicted branch beats several random ones.
                    const unsigned report = bit(e.box.min_x <= f.box.max_x) &
                                            bit(f.box.min_x <= e.box.max_x) &
                                            bit(e.box.min_y <= f.box.max_y) &
                                            bit(f.box.min_y <= e.box.max_y) &
                                            bit(cell_x == std::max(e.x0, f.x0)) &
                                            bit(cell_y == std::max(e.y0, f.y0));
                    if (report != 0) visit(std::min(e.item, f.item), std::max(e.item, f.item));
                }
            }
        }
    }
    // Large boxes against everything; a pair of large boxes once.
    for (const std::uint32_t big : large_) {
        for (std::uint32_t i = 0; i < boxes_.size(); ++i) {
            if (i == big || !present_[i] || (is_large_[i] && i < big)) continue;
            if (physics::overlaps(boxes_[big], boxes_[i]))
                visit(std::min(big, i), std::max(big, i));
        }
    }
}

template <class Visit>
void CellGrid::query(const Aabb& box, Visit&& visit) const {
    if (width_ == 0) return;
    const CellRange q = clamped_cells(box);
    const FloatBox fbox = widen_to_float(box);
    if (q.count() > kMaxCellsPerItem) {
        for (std::uint32_t i = 0; i < boxes_.size(); ++i) {
            if (present_[i] && physics::overlaps(boxes_[i], box)) visit(i);
        }
        return;
    }
    for (std::int32_t cy = q.y0; cy <= q.y1; ++cy) {
        const std::uint32_t first = cell_start_[cell_index(q.x0, cy)];
        const std::uint32_t end = cell_start_[cell_index(q.x1, cy) + 1];
        // One contiguous run per row; each entry knows its own cell by its range.
        for (std::uint32_t k = first; k < end; ++k) {
            const Entry& e = entries_[k];
            if (!overlaps(e.box, fbox)) continue;
            if (std::max(e.y0, q.y0) != cy) continue;
            // Report in the first column where the entry and the query meet.
            const std::int32_t col = std::max(e.x0, q.x0);
            if (k < cell_start_[cell_index(col, cy)] || k >= cell_start_[cell_index(col, cy) + 1])
                continue;
            visit(e.item);
        }
    }
    for (const std::uint32_t big : large_) {
        if (physics::overlaps(boxes_[big], box)) visit(big);
    }
}

}  // namespace carom::physics::detail
