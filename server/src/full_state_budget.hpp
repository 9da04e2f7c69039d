#pragma once
// What a session can make the server send in FullStates, however it
// acknowledges: one every kEveryTicks ticks on average, kBurst at once. A
// client that lost its state has a FullState at once (the burst is there
// after any quiet spell); one that never acknowledges gets one every
// kEveryTicks, as the resend rule sends them anyway; one that acknowledges
// each once and then claims to hold nothing (a FullState due every update)
// gets no more than that either.
#include <algorithm>
#include <cstdint>

namespace carom::server {

class FullStateBudget {
  public:
    static constexpr std::uint64_t kEveryTicks = 20;
    // A join's FullState, its copy (PROTOCOL.md) and one resend.
    static constexpr std::uint64_t kBurst = 3;

    // Whether take() would spend at server tick `tick`.
    bool available(std::uint64_t tick) const {
        return std::min(kEveryTicks * kBurst, credit_ + (tick - refilled_at_)) >= kEveryTicks;
    }
    // Spends one FullState's credit at server tick `tick`; false (nothing
    // spent) when the session has none left.
    bool take(std::uint64_t tick) {
        credit_ = std::min(kEveryTicks * kBurst, credit_ + (tick - refilled_at_));
        refilled_at_ = tick;
        if (credit_ < kEveryTicks) return false;
        credit_ -= kEveryTicks;
        return true;
    }

  private:
    std::uint64_t credit_ = kEveryTicks * kBurst;  // in ticks of refill
    std::uint64_t refilled_at_ = 0;
};

}  // namespace carom::server
