#pragma once
// Latency: from sending an input to receiving the first update that
// reflects it (last_input_sequence), in real time over loopback UDP, one
// 4 v 4 room, inputs sent at random moments within the tick.
#include <cstddef>
#include <cstdint>

namespace carom::bench {

struct Latency {
    std::uint32_t update_rate_hz = 0;
    double p50_ms = 0, p99_ms = 0;
    std::size_t samples = 0;
};

// `seconds` of real time after a second of warm-up.
Latency measure_latency(std::uint32_t update_rate_hz, double seconds);

// One line against the target (p99 at most a tick + 1 ms), or one JSON
// line. The 30 Hz line comes first in the table, with its heading
// (`seconds` a run) and a note.
void print_latency(const Latency& l, double seconds, bool json);

}  // namespace carom::bench
