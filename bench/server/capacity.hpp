#pragma once
// Capacity: N clients on real loopback sockets, rooms of 8, one thread; how
// long a tick takes as the clients grow, and its CPU time against a bare
// socket loop's for the same datagrams (bare_loop.hpp).
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
    // Mean CPU time of a tick: the server's (as cpu above), and the bare
    // loop's for the same clients' datagrams, timed in alternate ticks.
    double cpu_mean_ms = 0, bare_cpu_mean_ms = 0;
    double bare_received = 0;  // as `received`, for the bare loop

    double cpu_us_per_client_tick() const;
    double bare_cpu_us_per_client_tick() const;
    double vs_bare() const;  // the server's CPU time over the bare loop's
    // Rooms of 8 that one core holds at 60 Hz, at this mean CPU time a room.
    double rooms_per_core() const;
};

// `n` clients, `ticks` timed after a second of warm-up.
Capacity measure_capacity(std::uint32_t n, std::uint32_t ticks);

// The table's heading (`ticks` timed per row), then one row per point, or one JSON line each.
void print_capacity_heading(std::uint32_t ticks);
void print_capacity(const Capacity& c, bool json);

}  // namespace carom::bench
