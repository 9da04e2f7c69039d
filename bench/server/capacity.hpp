#pragma once
// Capacity: N clients on real loopback sockets, rooms of 8, one thread; how
// long a tick takes as the clients grow.
#include <cstdint>

namespace carom::bench {

struct Capacity {
    std::uint32_t clients = 0;
    // Wall time of the measured tick: receive the inputs, Server::tick, flush.
    double p50_ms = 0, p99_ms = 0, max_ms = 0;
    // The same ticks in this thread's CPU time: what the shared machine's
    // other processes took while it waited is left out.
    double cpu_p50_ms = 0, cpu_p99_ms = 0;
    // Wall time of Server::tick and the flush alone, as carom-server's stats
    // line measures a tick: it reads datagrams as they arrive between ticks.
    double without_receive_p99_ms = 0;
    double load = 0;                    // mean CPU time of a tick over the tick period (16.7 ms)
    std::uint64_t updates_missing = 0;  // clients that fell behind by more than an update
    // Input datagrams the server read, of those the clients sent in the timed
    // ticks: the rest overflowed the socket's receive buffer and cost it nothing.
    double received = 0;
    // Mean ms of a tick's parts: reading and handling the inputs (poll),
    // Server::tick (rooms, update encoding, queueing), and the final flush.
    double receive_ms = 0, logic_ms = 0, send_ms = 0;
};

// `n` clients, `ticks` timed after a second of warm-up.
Capacity measure_capacity(std::uint32_t n, std::uint32_t ticks);

// The table's heading (`ticks` timed per row), then one row per point, or one JSON line each.
void print_capacity_heading(std::uint32_t ticks);
void print_capacity(const Capacity& c, bool json);

}  // namespace carom::bench
