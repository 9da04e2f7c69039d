#include "hash_grid.hpp"

#include <algorithm>
#include <bit>

namespace carom::physics::detail {
void HashGrid::reset(double cell_size, std::size_t item_limit) {
    cell_size_ = cell_size;
    inv_cell_size_ = 1.0 / cell_size;
    const std::size_t bucket_count = std::bit_ceil(std::max<std::size_t>(64, 2 * item_limit));
    if (buckets_.size() < bucket_count) {
        // Room for a few items in every bucket up front, so that the first
        // use of a bucket in some later step does not allocate.
        buckets_.resize(bucket_count);
        for (auto& bucket : buckets_)
            bucket.reserve(4);
    }
    bucket_mask_ = static_cast<std::uint32_t>(bucket_count - 1);
    for (auto& bucket : buckets_)
        bucket.clear();
    large_items_.clear();
    items_.assign(item_limit, Item{});
    if (visited_stamp_.size() < item_limit) visited_stamp_.resize(item_limit, 0u);
}

void HashGrid::insert(std::uint32_t item, const Aabb& box) {
    Item& it = items_[item];
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
            buckets_[bucket_of(cx, cy)].push_back(item);
        }
    }
}

void HashGrid::remove(std::uint32_t item) {
    Item& it = items_[item];
    if (!it.present) return;
    it.present = false;
    auto erase_from = [item](std::vector<std::uint32_t>& list) {
        const auto pos = std::find(list.begin(), list.end(), item);
        if (pos != list.end()) {
            *pos = list.back();
            list.pop_back();
        }
    };
    if (it.large) {
        erase_from(large_items_);
        return;
    }
    for (std::int32_t cy = it.cells.y0; cy <= it.cells.y1; ++cy) {
        for (std::int32_t cx = it.cells.x0; cx <= it.cells.x1; ++cx) {
            erase_from(buckets_[bucket_of(cx, cy)]);
        }
    }
}

}  // namespace carom::physics::detail
