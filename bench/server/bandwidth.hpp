#pragma once
// Bandwidth: one 4 v 4 room, eight in-process clients acknowledging every
// update, updates (delta) against full states.
#include <cstdint>
#include <vector>

namespace carom::bench {

struct Bandwidth {
    double bytes_per_s = 0;      // per client, payload only
    double datagrams_per_s = 0;  // per client
    double mean_update_bytes = 0;
};

// `ticks` timed after a second of warm-up; `sizes`, when given, receives
// the size of every update datagram of the timed ticks.
Bandwidth measure_bandwidth(bool delta, std::uint32_t ticks, std::vector<std::uint16_t>* sizes);

// The table's lines, or one JSON line.
void print_bandwidth(const Bandwidth& delta, const Bandwidth& full, bool json);

}  // namespace carom::bench
