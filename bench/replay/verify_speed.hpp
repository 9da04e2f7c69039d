#pragma once
// How fast replay::verify (without synctest) re-simulates and checks a replay.
#include <cstddef>
#include <cstdint>
#include <string>

#include "carom/replay/replay.hpp"

namespace carom::bench {

// Verifying is worth it when a whole season of matches checks in minutes.
inline constexpr double kTargetXRealtime = 2000.0;
inline constexpr std::uint64_t kTenMinuteTicks = 10 * 60 * std::uint64_t{game::kTickRate};

struct VerifySettings {
    std::size_t warmup_runs = 1;
    std::size_t timed_runs = 5;
};

struct VerifySpeed {
    std::uint64_t ticks = 0;  // ticks replay::verify re-simulated and matched (every run)
    bool verified = false;    // no divergence, no inconsistency, every tick checked
    std::string problem;      // why not, when not
    double best_seconds = 0.0;
    double median_seconds = 0.0;

    double us_per_tick(double seconds) const;
    // Game time (ticks at 60 Hz) over wall time.
    double x_realtime(double seconds) const;
    // Wall time to verify a 10-minute match at this rate.
    double ten_minute_ms(double seconds) const;
};

VerifySpeed measure_verify(const replay::Replay& replay, const VerifySettings& settings);

}  // namespace carom::bench
