#include "carom/client/send_policy.hpp"

#include <algorithm>
#include <limits>

namespace carom::client {

SendPolicy::Send SendPolicy::tick(std::optional<game::Input> input,
                                  std::optional<std::uint64_t> held) {
    if (since_sent_ < std::numeric_limits<std::uint32_t>::max()) ++since_sent_;
    if (input) {
        if (!last_input_ || *last_input_ != *input)
            change_left_ = std::max<std::uint32_t>(config_.change_ticks, 1);
        last_input_ = input;
    }
    Send send = Send::nothing;
    if (change_left_ > 0) {
        --change_left_;
        send = Send::input;
    } else {
        const std::uint32_t every =
            std::max<std::uint32_t>(input ? config_.ack_ticks : config_.spectator_ack_ticks, 1);
        const bool newer = held && (!acked_ || *held > *acked_);
        // Holding nothing any more (a dropped copy) is said at once: the server
        // then sends a FullState instead of updates the client cannot step.
        const bool lost = !held && acked_.has_value();
        if (!sent_any_ || lost || (ack_soon_ && held) || (newer && since_sent_ >= every))
            send = Send::ack;
    }
    if (send != Send::nothing) {
        sent_any_ = true;
        since_sent_ = 0;
        acked_ = held;
        ack_soon_ = false;
    }
    return send;
}

void SendPolicy::reset() {
    *this = SendPolicy(config_);
}

}  // namespace carom::client
