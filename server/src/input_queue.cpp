#include "input_queue.hpp"

#include <algorithm>

#include "carom/protocol/packet.hpp"

namespace carom::server {

InputQueue::Offer InputQueue::offer(std::uint32_t sequence, std::uint8_t bits) {
    if (!protocol::sequence_after(sequence, last_sequence_)) return Offer::stale;
    // From the back: a new input is usually the newest.
    const auto ahead = [this](std::uint32_t s) { return s - last_sequence_; };  // mod 2^32
    std::size_t at = count_;
    while (at > 0 && ahead(pending_[at - 1].sequence) > ahead(sequence))
        --at;
    if (at > 0 && pending_[at - 1].sequence == sequence) return Offer::duplicate;
    std::move_backward(pending_.begin() + static_cast<std::ptrdiff_t>(at),
                       pending_.begin() + static_cast<std::ptrdiff_t>(count_),
                       pending_.begin() + static_cast<std::ptrdiff_t>(count_ + 1));
    pending_[at] = {sequence, game::Input::from_bits(bits)};
    if (++count_ > kMaxBuffered) {
        drop_oldest();
        ++overflowed_;
    }
    return Offer::queued;
}

game::Input InputQueue::next() {
    if (count_ == 0) {
        ++repeated_;
        return held_;
    }
    // The oldest we have: a gap (all K copies lost) is skipped, not waited for.
    last_sequence_ = pending_[0].sequence;
    held_ = pending_[0].input;
    drop_oldest();
    return held_;
}

void InputQueue::drop_oldest() {
    std::move(pending_.begin() + 1, pending_.begin() + static_cast<std::ptrdiff_t>(count_),
              pending_.begin());
    --count_;
}

}  // namespace carom::server
