#pragma once
// The round trip to a client in ticks, as its acknowledgements show it: the
// acknowledgement of tick A heard on tick T took T - A ticks (the update's
// way out, the client's wait before it sent, the way back). A client
// acknowledges a FullState on its next tick and other states less often, so
// the lowest sample of the last second or two is the round trip itself; and
// from it, when a FullState not acknowledged is sent again. The first sample
// is the client's first word after its join's FullState left (it speaks on
// its first tick, holding a state or not): until then nothing is resent, as
// a client not yet heard (its Accepted lost, say) cannot use a FullState and
// would only spend the session's budget the join's next one needs.
#include <algorithm>
#include <cstdint>
#include <optional>

namespace carom::server {

class RoundTrip {
  public:
    // The resend's bounds: no sooner than a loopback client can answer, no
    // later than the budget's own pace (FullStateBudget::kEveryTicks).
    static constexpr std::uint64_t kMinResendTicks = 3;
    static constexpr std::uint64_t kMaxResendTicks = 20;
    static constexpr std::uint64_t kWindowTicks = 60;

    // An acknowledgement of a tick `ticks` old, heard on tick `now`.
    void sample(std::uint64_t ticks, std::uint64_t now) {
        if (!current_ || now - window_start_ >= kWindowTicks) {
            previous_ = current_;
            current_ = ticks;
            window_start_ = now;
            return;
        }
        current_ = std::min(*current_, ticks);
    }

    // The lowest sample of this window and the last (none before the first).
    std::optional<std::uint64_t> ticks() const {
        if (!current_) return std::nullopt;
        return previous_ ? std::min(*current_, *previous_) : *current_;
    }

    // About 1.5 round trips, within the bounds; none before the first sample.
    std::optional<std::uint64_t> full_state_resend_ticks() const {
        const std::optional<std::uint64_t> rtt = ticks();
        if (!rtt) return std::nullopt;
        return std::clamp<std::uint64_t>((3 * *rtt + 1) / 2, kMinResendTicks, kMaxResendTicks);
    }

  private:
    std::optional<std::uint64_t> current_, previous_;
    std::uint64_t window_start_ = 0;
};

}  // namespace carom::server
