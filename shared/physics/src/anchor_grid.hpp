#pragma once
// Broadphase for many boxes of about one size, known all at once (the disks'
// reaches, their bounds): each box is stored once, in the cell of its min
// corner, its anchor. Cells are a little larger than the boxes, so two boxes
// that overlap have anchors in the same or in adjacent cells: pairs come from
// each cell against itself and four forward neighbours, each pair exactly
// once, with no deduplication. The few boxes too large for a cell (the
// largest 1/32 at most) go to a coarser grid of their own, built the same
// way, or on a short list once they are few.
//
// Laid out flat (a counting sort by cell) with each entry carrying its box,
// so finding pairs walks memory in order. Candidates are a superset: boxes
// that overlap are always reported, boxes a float's rounding apart may be too
// (callers test the shapes exactly). Which cell size is used only affects
// speed, never what is reported.
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "cell_math.hpp"

namespace carom::physics::detail {

// (min, max) of two indices by masks: compilers turn std::min and std::max
// into a branch, mispredicted half the time when the order is random.
inline std::pair<std::uint32_t, std::uint32_t> ordered_pair(std::uint32_t i, std::uint32_t j) {
    const std::uint32_t swap = (i ^ j) & (0u - static_cast<std::uint32_t>(j < i));
    return {i ^ swap, j ^ swap};
}

class AnchorGrid {
  public:
    AnchorGrid() = default;
    // A copy is empty: the grid only has meaning for the spans it was built
    // from, which belong to its owner.
    AnchorGrid(const AnchorGrid&) {}
    AnchorGrid& operator=(const AnchorGrid& other) {
        if (this != &other) clear();
        return *this;
    }
    AnchorGrid(AnchorGrid&&) noexcept = default;
    AnchorGrid& operator=(AnchorGrid&&) noexcept = default;
    ~AnchorGrid() = default;

    void clear();
    // `present[i]` says whether boxes[i] takes part. The grid keeps a view of
    // both spans: they must outlive it and stay unchanged while it is used.
    void build(std::span<const Aabb> boxes, std::span<const std::uint8_t> present);

    using Pair = std::pair<std::uint32_t, std::uint32_t>;
    // Replaces `out` with each pair (i, j), i < j, of overlapping boxes, once.
    // `out` is the caller's, so that its memory is kept from call to call.
    void find_pairs(std::vector<Pair>& out);

    // Calls visit(i) once for each box overlapping `box`.
    template <class Visit>
    void query(const Aabb& box, Visit&& visit) const;

  private:
    // A box widened to floats (widen_to_float in cell_math.hpp) and its item.
    struct Entry {
        float min_x, min_y, max_x, max_y;
        std::uint32_t item;

        // Bitwise, not short-circuit: see find_small_pairs.
        bool overlaps(const Entry& o) const {
            return (min_x <= o.max_x) & (o.min_x <= max_x) & (min_y <= o.max_y) &
                   (o.min_y <= max_y);
        }
    };

    // One entry tested against many. With SSE the four comparisons are one:
    // (f.min, -f.max) <= (e.max, -e.min) lane by lane, which is exactly
    // Entry::overlaps (negating a float is exact; NaN compares false in both).
#if defined(__SSE2__)
    class Probe {
      public:
        explicit Probe(const Entry& e)
            : bound_(_mm_setr_ps(e.max_x, e.max_y, -e.min_x, -e.min_y)),
              flip_(_mm_setr_ps(0.0f, 0.0f, -0.0f, -0.0f)) {}
        bool overlaps(const Entry& f) const {
            const __m128 lower = _mm_xor_ps(_mm_loadu_ps(&f.min_x), flip_);
            return _mm_movemask_ps(_mm_cmple_ps(lower, bound_)) == 0xF;
        }

      private:
        __m128 bound_;
        __m128 flip_;
    };
#else
    class Probe {
      public:
        explicit Probe(const Entry& e) : e_(e) {}
        bool overlaps(const Entry& f) const { return e_.overlaps(f); }

      private:
        Entry e_;
    };
#endif

    static Entry to_entry(const Aabb& box, std::uint32_t item);

    std::int32_t column_of(double x) const;
    std::int32_t row_of(double y) const;
    std::uint32_t cell_index(std::int32_t cx, std::int32_t cy) const {
        return static_cast<std::uint32_t>(cy) * width_ + static_cast<std::uint32_t>(cx);
    }
    // Entries of cells cx0..cx1 (clamped to the grid) of row cy: one contiguous run.
    struct Run {
        std::uint32_t begin = 0, end = 0;
    };
    Run row_run(std::int32_t cx0, std::int32_t cx1, std::int32_t cy) const;

    // Calls visit(entry) for every small entry that may overlap `probe`.
    template <class Visit>
    void for_each_candidate(const Entry& probe, Visit&& visit) const;

    double origin_x_ = 0.0, origin_y_ = 0.0;
    double inv_cell_size_ = 1.0;
    std::uint32_t width_ = 0, height_ = 0;
    std::vector<std::uint32_t> cell_start_;  // cell c holds entries [start[c], start[c+1])
    std::vector<std::uint32_t> fill_;
    std::vector<Entry> staged_;           // the present boxes in item order, while building
    std::vector<std::uint32_t> cell_of_;  // per staged box, while building
    std::vector<double> extents_;         // while building
    std::vector<Entry> entries_;
    // Boxes too large for a cell: a short list, or past kShortList boxes a
    // coarser grid over them, whose item k is large_[k].item.
    std::vector<Entry> large_;  // ascending by item
    std::vector<Aabb> large_boxes_;
    std::vector<std::uint8_t> large_present_;
    std::unique_ptr<AnchorGrid> coarse_;
    bool use_coarse_ = false;
    std::vector<Pair> large_pairs_;  // overlapping, found by build

    // query() on the coarse grid for its parent, reporting the parent's items.
    void query_large(const Aabb& box, void (*visit)(void*, std::uint32_t), void* context) const;
    // Appends the overlapping pairs among the small boxes to out[0, used).
    void find_small_pairs(std::vector<Pair>& out, std::size_t& used);
    std::vector<Entry> neighbourhood_;     // find_small_pairs: one cell and its forward neighbours
    std::span<const Entry> parent_large_;  // set by the parent: item k is parent_large_[k].item
};

template <class Visit>
void AnchorGrid::for_each_candidate(const Entry& probe, Visit&& visit) const {
    if (width_ == 0) return;
    // A small box overlapping the probe has its anchor at most one cell
    // before the probe's min corner, and not after its max corner.
    const std::int32_t cx0 = column_of(probe.min_x) - 1;
    const std::int32_t cx1 = column_of(probe.max_x);
    const std::int32_t cy0 = std::max(row_of(probe.min_y) - 1, 0);
    const std::int32_t cy1 = std::min(row_of(probe.max_y), static_cast<std::int32_t>(height_) - 1);
    // The tests only note their hits, without a branch each (which entries
    // overlap is a coin flip, see find_small_pairs); the visits come after.
    constexpr std::uint32_t kBatch = 64;
    const Probe tester(probe);
    std::uint32_t hits[kBatch];
    std::uint32_t count = 0;
    for (std::int32_t cy = cy0; cy <= cy1; ++cy) {
        const Run run = row_run(cx0, cx1, cy);
        for (std::uint32_t k = run.begin; k < run.end; ++k) {
            hits[count] = k;
            count += tester.overlaps(entries_[k]) ? 1u : 0u;
            if (count == kBatch) {
                for (const std::uint32_t h : hits)
                    visit(entries_[h]);
                count = 0;
            }
        }
    }
    for (std::uint32_t h = 0; h < count; ++h)
        visit(entries_[hits[h]]);
}

template <class Visit>
void AnchorGrid::query(const Aabb& box, Visit&& visit) const {
    const Entry probe = to_entry(box, 0);
    for_each_candidate(probe, [&](const Entry& e) { visit(e.item); });
    if (use_coarse_) {
        // Through a plain function pointer: a template call here would
        // instantiate itself without end.
        const auto on_large = [](void* context, std::uint32_t item) {
            (*static_cast<std::remove_reference_t<Visit>*>(context))(item);
        };
        coarse_->query_large(box, on_large, &visit);
        return;
    }
    for (const Entry& e : large_) {
        if (e.overlaps(probe)) visit(e.item);
    }
}

}  // namespace carom::physics::detail
