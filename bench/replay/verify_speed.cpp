#include "replay/verify_speed.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include "carom/replay/verify.hpp"

namespace carom::bench {
namespace {

// What a report says is wrong, or empty when the whole replay verified.
std::string problem_of(const replay::VerifyReport& report, std::uint64_t last_tick) {
    if (report.inconsistency) return "inconsistent replay: " + *report.inconsistency;
    if (report.divergence) {
        return "diverges at tick " + std::to_string(report.divergence->tick) + ": " +
               report.divergence->what;
    }
    if (report.ticks != last_tick) {
        return "verified " + std::to_string(report.ticks) + " of " + std::to_string(last_tick) +
               " ticks";
    }
    return {};
}

double median(std::vector<double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

}  // namespace

double VerifySpeed::us_per_tick(double seconds) const {
    return seconds * 1e6 / static_cast<double>(ticks);
}

double VerifySpeed::x_realtime(double seconds) const {
    return static_cast<double>(ticks) / game::kTickRate / seconds;
}

double VerifySpeed::ten_minute_ms(double seconds) const {
    return us_per_tick(seconds) * static_cast<double>(kTenMinuteTicks) / 1e3;
}

VerifySpeed measure_verify(const replay::Replay& replay, const VerifySettings& settings) {
    const replay::VerifyOptions options;  // no synctest, no progress callback
    VerifySpeed speed;
    for (std::size_t i = 0; i < settings.warmup_runs; ++i) {
        const replay::VerifyReport report = replay::verify(replay, options);
        speed.ticks = report.ticks;
        speed.problem = problem_of(report, replay.last_tick());
    }
    std::vector<double> seconds;
    for (std::size_t i = 0; i < settings.timed_runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const replay::VerifyReport report = replay::verify(replay, options);
        const auto elapsed = std::chrono::steady_clock::now() - start;
        seconds.push_back(std::chrono::duration<double>(elapsed).count());
        speed.ticks = report.ticks;
        if (speed.problem.empty()) speed.problem = problem_of(report, replay.last_tick());
    }
    speed.verified = speed.problem.empty();
    speed.best_seconds = seconds.empty() ? std::numeric_limits<double>::quiet_NaN()
                                         : *std::min_element(seconds.begin(), seconds.end());
    speed.median_seconds = median(seconds);
    return speed;
}

}  // namespace carom::bench
