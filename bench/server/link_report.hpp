#pragma once
// The `link` part of `carom-bench server`: bandwidth through the link
// simulator (run_link) over a grid of round trips and losses and over the
// maps, each condition run with every seed and shown as ranges over them.
#include "server/options.hpp"

namespace carom::bench {

// Runs the part and prints its tables, or one JSON line per run.
void report_link(const ServerOptions& options);

}  // namespace carom::bench
