#pragma once
// Broadphase for static shapes, boxes of any size known all at once: a dense
// row-major grid over their common bounds, each box entered in every cell it
// covers, laid out flat (counting sort by cell) with each entry carrying its
// box, so a query touches a few short contiguous runs. (Disks, all of about
// one size, use the AnchorGrid.)
//
// Candidates are a superset: boxes that overlap are always reported, boxes a
// float's rounding apart may be too (callers test the shapes exactly).
// Each query result is reported exactly once: in the first cell (lowest x,
// then y) of the overlap of the two cell ranges. The cell size only affects
// speed, never what is reported.
#include <cstdint>
#include <span>
#include <vector>

#include "cell_math.hpp"

namespace carom::physics::detail {

class CellGrid {
  public:
    // `present[i]` says whether boxes[i] takes part. The grid may use larger
    // cells than asked, to keep its cell count proportional to the boxes.
    void build(std::span<const Aabb> boxes, std::span<const std::uint8_t> present,
               double cell_size);

    // Calls visit(i) once for each box overlapping `box`.
    template <class Visit>
    void query(const Aabb& box, Visit&& visit) const;

  private:
    struct Entry {
        FloatBox box;
        std::uint32_t item;
        std::int32_t x0, y0;  // the first cell of the item's range
    };
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
