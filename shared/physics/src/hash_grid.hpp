#pragma once
// Broadphase for boxes that change: a uniform grid hashed into a
// power-of-two table of buckets, with insert and remove.
//
// Items (disk or static indices) are stored in every cell their box covers,
// or on the large list (see cell_math.hpp). Results never depend on the cell
// size or on bucket collisions: a query reports exactly the items whose box
// overlaps the query box, each once, and callers make every decision from
// those items with a total order.
//
// Buckets are linked lists of nodes from one pool, so memory follows the
// number of stored (item, cell) entries, not the fullest bucket ever seen:
// once the pool has grown to a scene's peak, a step does not allocate. A
// reset clears only what was touched since the last one.
#include <cstdint>
#include <vector>

#include "cell_math.hpp"

namespace carom::physics::detail {

class HashGrid {
  public:
    // Forgets all items. Items are indices below `item_limit`.
    void reset(double cell_size, std::size_t item_limit);
    void insert(std::uint32_t item, const Aabb& box);
    void remove(std::uint32_t item);
    bool contains(std::uint32_t item) const { return items_[item].present; }

    // Calls visit(item) once for each stored item whose box overlaps `box`.
    template <class Visit>
    void query(const Aabb& box, Visit&& visit);

  private:
    static constexpr std::uint32_t kNone = UINT32_MAX;

    struct Item {
        Aabb box;
        CellRange cells;
        bool present = false;
        bool large = false;
        bool touched = false;  // listed in touched_items_
    };
    struct Node {
        std::uint32_t item;
        std::uint32_t next;  // kNone ends the bucket
    };

    std::uint32_t bucket_of(std::int32_t cx, std::int32_t cy) const;
    bool mark_visited(std::uint32_t item);
    std::uint32_t new_node();

    double inv_cell_size_ = 1.0;
    std::uint32_t bucket_mask_ = 0;
    std::vector<std::uint32_t> heads_;  // per bucket: its first node, or kNone
    std::vector<Node> nodes_;
    std::uint32_t free_nodes_ = kNone;  // removed nodes, linked through next
    std::vector<std::uint32_t> touched_buckets_;
    std::vector<std::uint8_t> bucket_touched_;  // listed in touched_buckets_
    std::vector<std::uint32_t> touched_items_;
    std::vector<Item> items_;
    std::vector<std::uint32_t> large_items_;
    std::vector<std::uint32_t> visited_stamp_;
    std::uint32_t stamp_ = 0;
};

template <class Visit>
void HashGrid::query(const Aabb& box, Visit&& visit) {
    ++stamp_;
    if (stamp_ == 0) {  // wrapped: old stamps could look current
        std::fill(visited_stamp_.begin(), visited_stamp_.end(), 0u);
        stamp_ = 1;
    }
    const CellRange range = cells_of(box, inv_cell_size_);
    if (range.count() > kMaxCellsPerItem) {
        // A huge query box: scanning every item is cheaper than its cells.
        for (std::uint32_t i = 0; i < items_.size(); ++i) {
            if (items_[i].present && overlaps(items_[i].box, box)) visit(i);
        }
        return;
    }
    for (std::int32_t cy = range.y0; cy <= range.y1; ++cy) {
        for (std::int32_t cx = range.x0; cx <= range.x1; ++cx) {
            for (std::uint32_t k = heads_[bucket_of(cx, cy)]; k != kNone; k = nodes_[k].next) {
                const std::uint32_t item = nodes_[k].item;
                if (overlaps(items_[item].box, box) && mark_visited(item)) visit(item);
            }
        }
    }
    for (const std::uint32_t item : large_items_) {
        if (overlaps(items_[item].box, box) && mark_visited(item)) visit(item);
    }
}

inline bool HashGrid::mark_visited(std::uint32_t item) {
    if (visited_stamp_[item] == stamp_) return false;
    visited_stamp_[item] = stamp_;
    return true;
}

inline std::uint32_t HashGrid::bucket_of(std::int32_t cx, std::int32_t cy) const {
    return hash_cell(cx, cy, bucket_mask_);
}

}  // namespace carom::physics::detail
