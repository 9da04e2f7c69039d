#include "anchor_grid.hpp"

#include <algorithm>
#include <cmath>

namespace carom::physics::detail {
namespace {

// A box fits a cell when it spans at most this fraction of one: the slack
// keeps rounding in the cell arithmetic from pushing two overlapping boxes'
// anchors two cells apart.
constexpr double kFitFraction = 63.0 / 64.0;
// About this share of the boxes, the largest, may be too large for a cell.
constexpr double kLargeFraction = 1.0 / 32.0;
// Up to this many large boxes are checked one by one; more get a coarser grid.
constexpr std::size_t kShortList = 32;
// The cell size is estimated from the extents of about this many boxes.
constexpr std::size_t kSample = 1024;
// find_small_pairs copies runs of entries of up to this length as one block.
constexpr std::uint32_t kGatherBlock = 8;

}  // namespace

AnchorGrid::Entry AnchorGrid::to_entry(const Aabb& box, std::uint32_t item) {
    const FloatBox f = widen_to_float(box);
    return {f.min_x, f.min_y, f.max_x, f.max_y, item};
}

std::int32_t AnchorGrid::column_of(double x) const {
    return to_cell(x - origin_x_, inv_cell_size_);
}

std::int32_t AnchorGrid::row_of(double y) const {
    return to_cell(y - origin_y_, inv_cell_size_);
}

AnchorGrid::Run AnchorGrid::row_run(std::int32_t cx0, std::int32_t cx1, std::int32_t cy) const {
    cx0 = std::max(cx0, 0);
    cx1 = std::min(cx1, static_cast<std::int32_t>(width_) - 1);
    if (cx0 > cx1) return {};
    return {cell_start_[cell_index(cx0, cy)], cell_start_[cell_index(cx1, cy) + 1]};
}

void AnchorGrid::clear() {
    entries_.clear();
    large_.clear();
    large_pairs_.clear();
    use_coarse_ = false;
    width_ = height_ = 0;
}

void AnchorGrid::build(std::span<const Aabb> boxes, std::span<const std::uint8_t> present) {
    const std::size_t n = boxes.size();
    clear();

    // The cell size follows the boxes: large enough for all but the largest
    // few (kLargeFraction), which go on the large list. One fast outlier does
    // not make every cell bigger, and the large list stays short.
    double min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY;
    // Each box is widened to float once; the passes below read `staged_`.
    // The extents of about kSample boxes, evenly spread, estimate the cell.
    staged_.clear();
    extents_.clear();
    const std::size_t stride = std::max<std::size_t>(1, n / kSample);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!present[i]) continue;
        const Entry e = to_entry(boxes[i], i);
        staged_.push_back(e);
        min_x = std::min(min_x, double{e.min_x});
        min_y = std::min(min_y, double{e.min_y});
        max_x = std::max(max_x, double{e.min_x});
        max_y = std::max(max_y, double{e.min_y});
        if (i % stride == 0)
            extents_.push_back(std::max(double{e.max_x} - e.min_x, double{e.max_y} - e.min_y));
    }
    const std::size_t count = staged_.size();
    if (count == 0) return;
    if (extents_.empty()) {  // no present box fell on the stride
        for (const Entry& e : staged_)
            extents_.push_back(std::max(double{e.max_x} - e.min_x, double{e.max_y} - e.min_y));
    }
    const auto rank = static_cast<std::ptrdiff_t>(static_cast<double>(extents_.size() - 1) *
                                                  (1.0 - kLargeFraction));
    std::nth_element(extents_.begin(), extents_.begin() + rank, extents_.end());

    const double span_x = max_x - min_x;
    const double span_y = max_y - min_y;
    double cell = extents_[static_cast<std::size_t>(rank)] / kFitFraction;
    if (!(cell > 0.0)) cell = 1.0;
    // Keep the cell count near 4 per box, so that far-apart boxes coarsen
    // the grid instead of allocating an enormous one.
    const double max_cells = 4.0 * static_cast<double>(count) + 64.0;
    cell = std::max(
        {cell, std::sqrt(span_x * span_y / max_cells), span_x / max_cells, span_y / max_cells});
    const double fit = cell * kFitFraction;
    origin_x_ = min_x;
    origin_y_ = min_y;
    inv_cell_size_ = 1.0 / cell;
    width_ = static_cast<std::uint32_t>(column_of(max_x)) + 1;
    height_ = static_cast<std::uint32_t>(row_of(max_y)) + 1;

    const std::size_t cells = std::size_t{width_} * height_;
    cell_start_.assign(cells + 1, 0u);
    cell_of_.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        const Entry& e = staged_[k];
        if (double{e.max_x} - e.min_x > fit || double{e.max_y} - e.min_y > fit) {
            large_.push_back(e);
            cell_of_[k] = UINT32_MAX;
            continue;
        }
        cell_of_[k] = cell_index(column_of(e.min_x), row_of(e.min_y));
        ++cell_start_[cell_of_[k] + 1];
    }
    for (std::size_t c = 0; c < cells; ++c)
        cell_start_[c + 1] += cell_start_[c];

    // Padded, so that find_small_pairs may copy whole blocks from any run.
    entries_.resize(cell_start_[cells] + kGatherBlock);
    fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
    for (std::size_t k = 0; k < count; ++k) {
        if (cell_of_[k] != UINT32_MAX) entries_[fill_[cell_of_[k]]++] = staged_[k];
    }

    if (large_.size() <= kShortList) {
        for (std::size_t k = 0; k < large_.size(); ++k) {
            for (std::size_t l = k + 1; l < large_.size(); ++l) {
                if (large_[k].overlaps(large_[l]))
                    large_pairs_.emplace_back(large_[k].item, large_[l].item);
            }
        }
        return;
    }
    large_boxes_.resize(large_.size());
    for (std::size_t k = 0; k < large_.size(); ++k)
        large_boxes_[k] = boxes[large_[k].item];
    large_present_.assign(large_.size(), 1u);
    if (!coarse_) coarse_ = std::make_unique<AnchorGrid>();
    coarse_->build(large_boxes_, large_present_);
    coarse_->parent_large_ = large_;
    coarse_->find_pairs(large_pairs_);
    for (Pair& pair : large_pairs_) {
        const std::uint32_t i = large_[pair.first].item;
        const std::uint32_t j = large_[pair.second].item;
        pair = ordered_pair(i, j);
    }
    use_coarse_ = true;
}

void AnchorGrid::find_pairs(std::vector<Pair>& out) {
    std::size_t used = 0;
    find_small_pairs(out, used);
    out.resize(used);
    // In one pass over the hits rather than at every test.
    for (Pair& pair : out)
        pair = ordered_pair(pair.first, pair.second);
    // Large boxes against the small ones, then against each other.
    for (const Entry& big : large_) {
        for_each_candidate(big,
                           [&](const Entry& e) { out.push_back(ordered_pair(big.item, e.item)); });
    }
    out.insert(out.end(), large_pairs_.begin(), large_pairs_.end());
}

// Cell by cell, the cell's boxes against the later ones of the cell and those
// of its forward neighbours, gathered side by side. Which pairs overlap is a
// coin flip that no branch predictor learns, so each test writes its pair
// and the count moves on only over a hit. Loops of a few random rounds are
// mispredicted as well, so the runs are gathered by copies of fixed size.
void AnchorGrid::find_small_pairs(std::vector<Pair>& out, std::size_t& used) {
    const auto height = static_cast<std::int32_t>(height_);
    const auto width = static_cast<std::int32_t>(width_);
    const auto gather = [this](Entry*& to, std::uint32_t begin, std::uint32_t end) {
        if (end - begin <= kGatherBlock) {
            std::copy_n(entries_.data() + begin, kGatherBlock, to);
        } else {
            std::copy(entries_.data() + begin, entries_.data() + end, to);
        }
        to += end - begin;
    };
    for (std::int32_t cy = 0; cy < height; ++cy) {
        for (std::int32_t cx = 0; cx < width; ++cx) {
            const std::uint32_t c = cell_index(cx, cy);
            const std::uint32_t begin = cell_start_[c];
            const std::uint32_t end = cell_start_[c + 1];
            if (begin == end) continue;
            // The forward half of the neighbourhood: the cell itself with
            // (+1, 0), which follows it in memory; (+1, -1); (0, +1) with
            // (+1, +1), side by side in the next row.
            const std::uint32_t right_end = row_run(cx, cx + 1, cy).end;
            const Run below = cy > 0 ? row_run(cx + 1, cx + 1, cy - 1) : Run{};
            const Run above = cy + 1 < height ? row_run(cx, cx + 1, cy + 1) : Run{};
            const std::size_t total =
                (right_end - begin) + (below.end - below.begin) + (above.end - above.begin);
            if (neighbourhood_.size() < total + kGatherBlock)
                neighbourhood_.resize(total + kGatherBlock);
            Entry* to = neighbourhood_.data();
            gather(to, begin, right_end);
            gather(to, below.begin, below.end);
            gather(to, above.begin, above.end);

            const std::size_t own = end - begin;
            const std::size_t tests = own * total - own * (own + 1) / 2;
            // Room for every test to hit; growing to the capacity first, so
            // memory kept from earlier calls is used before any is allocated.
            if (out.size() < used + tests) out.resize(std::max(used + tests, out.capacity()));
            Pair* next = out.data() + used;
            for (std::size_t k = 0; k < own; ++k) {
                const Probe e(neighbourhood_[k]);
                const std::uint32_t item = neighbourhood_[k].item;
                for (std::size_t l = k + 1; l < total; ++l) {
                    const Entry& f = neighbourhood_[l];
                    *next = {item, f.item};
                    next += e.overlaps(f) ? 1 : 0;
                }
            }
            used = static_cast<std::size_t>(next - out.data());
        }
    }
}

void AnchorGrid::query_large(const Aabb& box, void (*visit)(void*, std::uint32_t),
                             void* context) const {
    query(box, [&](std::uint32_t k) { visit(context, parent_large_[k].item); });
}

}  // namespace carom::physics::detail
