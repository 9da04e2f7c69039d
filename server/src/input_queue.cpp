#include "input_queue.hpp"

namespace carom::server {

InputQueue::Offer InputQueue::offer(std::uint32_t sequence, std::uint8_t bits) {
    if (sequence <= last_sequence_) return Offer::stale;
    if (!pending_.emplace(sequence, game::Input::from_bits(bits)).second) return Offer::duplicate;
    if (pending_.size() > kMaxBuffered) {
        pending_.erase(pending_.begin());
        ++overflowed_;
    }
    return Offer::queued;
}

game::Input InputQueue::next() {
    if (pending_.empty()) {
        ++repeated_;
        return held_;
    }
    // The oldest we have: a gap (all K copies lost) is skipped, not waited for.
    const auto first = pending_.begin();
    last_sequence_ = first->first;
    held_ = first->second;
    pending_.erase(first);
    return held_;
}

}  // namespace carom::server
