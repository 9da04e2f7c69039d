#pragma once
// How fast a 4 v 4 match steps through libcarom's C ABI, against the C++
// step it wraps, in the same run: the ABI's cost, and what batching buys.
#include <cstdint>
#include <string>

namespace carom::bench {

struct StepSettings {
    std::string map_path;
    double seconds = 0.25;             // per variant and round
    int rounds = 20;                   // the variants alternate, round after round: the
                                       // machine's drift touches them alike
    std::uint32_t ticks_per_call = 4;  // what a trainer's frame skip holds
    std::uint32_t matches = 16;        // matches per carom_matches_step call
};

// One variant: its ticks per second on one core (the median over the
// rounds) and its rate over the C++ step's in the same round (the median,
// and the quartiles, of those ratios).
struct VariantRate {
    double ticks_per_s = 0;
    double vs_cpp = 1, vs_cpp_q1 = 1, vs_cpp_q3 = 1;
};

struct StepRates {
    VariantRate cpp;         // game::Match::step, a tick at a time
    VariantRate capi_tick;   // carom_match_step, a tick per call
    VariantRate capi_held;   // carom_match_step, ticks_per_call ticks per call
    VariantRate capi_batch;  // carom_matches_step, matches × ticks_per_call per call
};

StepRates measure_step_rates(const StepSettings& settings);

// The input of `slot` at the schedule's step `step` (a step: ticks_per_call
// ticks): every variant, and the Python benchmark, play these.
std::uint8_t scheduled_input(std::uint32_t slot, std::uint64_t step);

}  // namespace carom::bench
