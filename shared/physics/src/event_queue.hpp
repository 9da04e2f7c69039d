#pragma once
// The sweep's pending impacts, earliest first, under the total order (time,
// disk, kind, other), so the same events always come out in the same order,
// whatever order they went in.
//
// A calendar: the tick's span of time is cut into buckets. Only the bucket
// being worked through is a binary min-heap; events for later buckets wait on
// a list each, and become the heap when their turn comes. Heaps stay a few
// events deep, where one heap of the whole tick would be a dozen levels, each
// a dependent load. A bucket is a monotone function of time, and an event
// earlier than the current bucket joins the heap, so every heap event
// precedes every waiting one and the order is exactly that of a single heap.
//
// In the heap, sifting down picks the earlier child by arithmetic, not by a
// branch: which of two children is earlier is a coin flip that mispredicts
// half the time. A pop moves the hole all the way to a leaf and sifts the
// last event up from there, where it usually stays.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace carom::physics::detail {

enum class EventKind : std::uint8_t { disk_disk, disk_static };

struct SweepEvent {
    double t;
    std::uint32_t a;  // disk; the lower index for disk pairs
    std::uint32_t b;  // disk or static index
    std::uint32_t version_a;
    std::uint32_t version_b;
    EventKind kind;
};

class EventQueue {
  public:
    EventQueue() {
        waiting_head_.reserve(kMaxBuckets);
        reset(1.0);
    }

    // Empties the queue for events at times in about [0, horizon] (others
    // are still ordered correctly, only less quickly).
    void reset(double horizon) {
        // About kPerBucket events a bucket, judged by the last use.
        const std::size_t buckets = std::clamp<std::size_t>(pushed_ / kPerBucket, 1, kMaxBuckets);
        waiting_head_.assign(buckets, kNone);
        scale_ = horizon > 0.0 ? static_cast<double>(buckets) / horizon : 0.0;
        // Room for as many events as the busiest use so far, in both places
        // an event can be: only a busier use than any before allocates.
        most_pushed_ = std::max(most_pushed_, pushed_);
        heap_.reserve(most_pushed_);
        waiting_.reserve(most_pushed_);
        heap_.clear();
        waiting_.clear();
        current_ = 0;
        size_ = 0;
        pushed_ = 0;
    }

    bool empty() const { return size_ == 0; }
    // The earliest event; only when not empty.
    const SweepEvent& top() const { return heap_.front(); }

    void push(const SweepEvent& e) {
        const std::size_t bucket = bucket_of(e.t);
        // Into an empty queue: nothing waits, so the calendar may move on to e.
        if (size_ == 0) current_ = std::max(current_, bucket);
        ++size_;
        ++pushed_;
        if (bucket <= current_) {
            heap_.push_back(e);
            sift_up(heap_.size() - 1, e);
            return;
        }
        waiting_.push_back({e, waiting_head_[bucket]});
        waiting_head_[bucket] = static_cast<std::uint32_t>(waiting_.size() - 1);
    }

    // Removes and returns the earliest event; only when not empty.
    SweepEvent pop() {
        const SweepEvent top = heap_.front();
        const SweepEvent last = heap_.back();
        heap_.pop_back();
        --size_;
        const std::size_t n = heap_.size();
        if (n == 0) {
            if (size_ > 0) next_bucket();
            return top;
        }
        std::size_t hole = 0;
        for (std::size_t child = 1; child + 1 < n; child = 2 * hole + 1) {
            child += earlier(heap_[child + 1], heap_[child]) ? 1u : 0u;
            heap_[hole] = heap_[child];
            hole = child;
        }
        if (2 * hole + 1 < n) {  // a last lone child
            heap_[hole] = heap_[2 * hole + 1];
            hole = 2 * hole + 1;
        }
        sift_up(hole, last);
        return top;
    }

  private:
    static constexpr std::size_t kPerBucket = 8;
    static constexpr std::size_t kMaxBuckets = 4096;
    static constexpr std::uint32_t kNone = UINT32_MAX;

    struct Waiting {
        SweepEvent event;
        std::uint32_t next;  // the bucket's next waiting event, or kNone
    };

    std::size_t bucket_of(double t) const {
        const double scaled = t * scale_;  // monotone in t: rounding keeps the order
        const std::size_t last = waiting_head_.size() - 1;
        // Written so that NaN, too, goes to the last bucket.
        if (!(scaled < static_cast<double>(last))) return last;
        return scaled > 0.0 ? static_cast<std::size_t>(scaled) : 0;
    }

    // The heap ran dry: the next bucket with waiting events becomes the heap.
    void next_bucket() {
        do {
            ++current_;
        } while (waiting_head_[current_] == kNone);
        for (std::uint32_t k = waiting_head_[current_]; k != kNone; k = waiting_[k].next) {
            heap_.push_back(waiting_[k].event);
            sift_up(heap_.size() - 1, waiting_[k].event);
        }
        waiting_head_[current_] = kNone;
    }

    // Ties in time are rare, so the branch on them is predictable.
    static bool earlier(const SweepEvent& x, const SweepEvent& y) {
        if (x.t != y.t) return x.t < y.t;
        if (x.a != y.a) return x.a < y.a;
        if (x.kind != y.kind) return x.kind < y.kind;
        return x.b < y.b;
    }

    // Places e at the hole or above it, moving later parents down.
    void sift_up(std::size_t hole, const SweepEvent& e) {
        while (hole > 0) {
            const std::size_t parent = (hole - 1) / 2;
            if (!earlier(e, heap_[parent])) break;
            heap_[hole] = heap_[parent];
            hole = parent;
        }
        heap_[hole] = e;
    }

    std::vector<SweepEvent> heap_;             // the current bucket's events
    std::vector<Waiting> waiting_;             // events of later buckets
    std::vector<std::uint32_t> waiting_head_;  // per bucket: its last waiting event, or kNone
    std::size_t current_ = 0;                  // the bucket the heap is working through
    double scale_ = 0.0;                       // buckets per unit of time
    std::size_t size_ = 0;
    std::size_t pushed_ = 0;       // since the last reset
    std::size_t most_pushed_ = 0;  // in any use so far
};

}  // namespace carom::physics::detail
