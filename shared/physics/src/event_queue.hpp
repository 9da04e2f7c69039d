#pragma once
// The sweep's pending impacts, earliest first: a binary min-heap under the
// total order (time, disk, kind, other), so the same events always come out
// in the same order, whatever order they went in.
//
// Sifting down picks the earlier child by arithmetic, not by a branch: which
// of two children is earlier is a coin flip that mispredicts half the time.
// A pop moves the hole all the way to a leaf (a loop of nearly fixed length)
// and sifts the last event up from there, where it usually stays.
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
    bool empty() const { return heap_.empty(); }
    const SweepEvent& top() const { return heap_.front(); }
    void clear() { heap_.clear(); }

    void push(const SweepEvent& e) {
        heap_.push_back(e);
        sift_up(heap_.size() - 1, e);
    }

    SweepEvent pop() {
        const SweepEvent top = heap_.front();
        const SweepEvent last = heap_.back();
        heap_.pop_back();
        const std::size_t n = heap_.size();
        if (n == 0) return top;
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

    std::vector<SweepEvent> heap_;
};

}  // namespace carom::physics::detail
