#pragma once
#include <CLI/CLI.hpp>

namespace carom::bench {

// Registers `server`: bandwidth per client (updates against full states),
// capacity (clients held at 60 Hz with tick p99 under 2 ms, one thread), and
// the cost of sending a datagram through the server's transport against a
// bare sendto loop.
void add_server_command(CLI::App& app);

}  // namespace carom::bench
