#pragma once
// Latency: from sending an input to receiving the first update that
// reflects it (last_input_sequence), in real time over loopback UDP, one
// 4 v 4 room, inputs sent at random moments within the tick: every tick's
// input sent (the protocol before clients sent by need), or a change after
// a quiet spell (what sending by need changes), sent alone or with the tick
// before it as a predicting player sends it (SendPolicyConfig::cushion).
#include <cstddef>
#include <cstdint>

namespace carom::bench {

enum class LatencyInput : std::uint8_t { every_tick, after_quiet, after_quiet_cushioned };

struct Latency {
    LatencyInput input = LatencyInput::every_tick;
    std::uint32_t update_rate_hz = 0;
    double p50_ms = 0, p99_ms = 0;
    std::size_t samples = 0;
};

// `seconds` of real time after a second of warm-up.
Latency measure_latency(LatencyInput input, std::uint32_t update_rate_hz, double seconds);

// One line against the target (p99 at most a tick + 1 ms), or one JSON
// line. The first line (every tick, 30 Hz) comes with the table's heading
// (`seconds` a run) and a note.
void print_latency(const Latency& l, double seconds, bool json);

}  // namespace carom::bench
