#pragma once
// Time since the run started: the only clock the clients see. It also keeps
// the load generator's own stalls, so that a gap the machine put into the
// load generator is not blamed on the server.
#include <algorithm>
#include <chrono>
#include <cstdint>

namespace carom::loadgen {

class RunClock {
  public:
    const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    std::int64_t now_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - start)
            .count();
    }
    std::uint64_t now_ms() const {
        const auto elapsed = std::chrono::steady_clock::now() - start;
        return static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count());
    }

    // The client loop ran a tick at now_ms. Time beyond two ticks since the
    // last one is the load generator's own stall (descheduled, or the
    // machine busy): it was not there to receive or to send.
    void loop_ran(std::uint64_t now_ms) {
        own_stalls_ms_ += beyond_slack(now_ms);
        loop_ran_ms_ = now_ms;
    }
    // The load generator's stalls up to now_ms (one still going included).
    std::uint64_t own_stalls_ms(std::uint64_t now_ms) const {
        return own_stalls_ms_ + beyond_slack(now_ms);
    }
    // Time the load generator was there to see: gaps measured on this clock
    // leave its own stalls out. It never runs backwards.
    std::uint64_t awake_ms(std::uint64_t now_ms) const { return now_ms - own_stalls_ms(now_ms); }

  private:
    static constexpr std::uint64_t kSlackMs = 33;  // two ticks at 60 Hz

    std::uint64_t beyond_slack(std::uint64_t now_ms) const {
        const std::uint64_t since = now_ms - std::min(now_ms, loop_ran_ms_);
        return since > kSlackMs ? since - kSlackMs : 0;
    }

    std::uint64_t loop_ran_ms_ = 0;
    std::uint64_t own_stalls_ms_ = 0;
};

}  // namespace carom::loadgen
