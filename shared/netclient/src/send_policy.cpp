#include "carom/client/send_policy.hpp"

#include <algorithm>
#include <limits>

namespace carom::client {

SendPolicy::Send SendPolicy::tick(std::optional<game::Input> input,
                                  std::optional<std::uint64_t> held) {
    if (since_sent_ < std::numeric_limits<std::uint32_t>::max()) ++since_sent_;
    Send send = Send::nothing;
    if (input && (config_.every_tick || !last_input_ || *last_input_ != *input)) {
        repeat_left_ = std::max<std::uint32_t>(config_.change_ticks, 1) - 1;
        send = Send::input;
    } else if (repeat_left_ > 0) {
        // The same inputs again, no new one: a copy that a lost first
        // datagram needs to arrive no later than its input is due.
        --repeat_left_;
        send = Send::ack;
    } else {
        const std::uint32_t every =
            config_.every_tick ? 1
                               : std::max<std::uint32_t>(
                                     input ? config_.ack_ticks : config_.spectator_ack_ticks, 1);
        const bool newer = held && (!acked_ || *held > *acked_);
        // Holding nothing any more (a dropped copy) is said at once: the server
        // then sends a FullState instead of updates the client cannot step.
        const bool lost = !held && acked_.has_value();
        if (!sent_any_ || lost || (ack_soon_ > 0 && held) || (newer && since_sent_ >= every))
            send = Send::ack;
    }
    if (input) last_input_ = input;
    if (send != Send::nothing) {
        sent_any_ = true;
        since_sent_ = 0;
        acked_ = held;
        if (ack_soon_ > 0 && held) --ack_soon_;
    }
    return send;
}

void SendPolicy::reset() {
    *this = SendPolicy(config_);
}

}  // namespace carom::client
