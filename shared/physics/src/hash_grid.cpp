#include "hash_grid.hpp"

#include <algorithm>
#include <bit>

namespace carom::physics::detail {

void HashGrid::reset(double cell_size, std::size_t item_limit) {
    inv_cell_size_ = 1.0 / cell_size;
    const std::size_t bucket_count = std::bit_ceil(std::max<std::size_t>(64, 2 * item_limit));
    if (heads_.size() != bucket_count) {
        heads_.assign(bucket_count, kNone);
        bucket_touched_.assign(bucket_count, 0u);
        touched_buckets_.reserve(bucket_count);
        bucket_mask_ = static_cast<std::uint32_t>(bucket_count - 1);
    } else {
        for (const std::uint32_t b : touched_buckets_) {
            heads_[b] = kNone;
            bucket_touched_[b] = 0;
        }
    }
    touched_buckets_.clear();
    nodes_.clear();
    free_nodes_ = kNone;
    large_items_.clear();
    if (items_.size() != item_limit) {
        items_.assign(item_limit, Item{});
        touched_items_.reserve(item_limit);
    } else {
        for (const std::uint32_t item : touched_items_)
            items_[item] = Item{};
    }
    touched_items_.clear();
    if (visited_stamp_.size() < item_limit) visited_stamp_.resize(item_limit, 0u);
}

std::uint32_t HashGrid::new_node() {
    if (free_nodes_ != kNone) {
        const std::uint32_t k = free_nodes_;
        free_nodes_ = nodes_[k].next;
        return k;
    }
    nodes_.push_back({});
    return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void HashGrid::insert(std::uint32_t item, const Aabb& box) {
    Item& it = items_[item];
    if (!it.touched) {
        it.touched = true;
        touched_items_.push_back(item);
    }
    it.box = box;
    it.cells = cells_of(box, inv_cell_size_);
    it.present = true;
    it.large = it.cells.count() > kMaxCellsPerItem;
    if (it.large) {
        large_items_.push_back(item);
        return;
    }
    for (std::int32_t cy = it.cells.y0; cy <= it.cells.y1; ++cy) {
        for (std::int32_t cx = it.cells.x0; cx <= it.cells.x1; ++cx) {
            const std::uint32_t b = bucket_of(cx, cy);
            if (bucket_touched_[b] == 0) {
                bucket_touched_[b] = 1;
                touched_buckets_.push_back(b);
            }
            const std::uint32_t k = new_node();
            nodes_[k] = {item, heads_[b]};
            heads_[b] = k;
        }
    }
}

void HashGrid::remove(std::uint32_t item) {
    Item& it = items_[item];
    if (!it.present) return;
    it.present = false;
    if (it.large) {
        const auto pos = std::find(large_items_.begin(), large_items_.end(), item);
        if (pos != large_items_.end()) large_items_.erase(pos);
        return;
    }
    for (std::int32_t cy = it.cells.y0; cy <= it.cells.y1; ++cy) {
        for (std::int32_t cx = it.cells.x0; cx <= it.cells.x1; ++cx) {
            // Unlink the item's node from this bucket (one per cell it covers).
            std::uint32_t* link = &heads_[bucket_of(cx, cy)];
            while (*link != kNone && nodes_[*link].item != item)
                link = &nodes_[*link].next;
            if (*link == kNone) continue;
            const std::uint32_t k = *link;
            *link = nodes_[k].next;
            nodes_[k].next = free_nodes_;
            free_nodes_ = k;
        }
    }
}

}  // namespace carom::physics::detail
