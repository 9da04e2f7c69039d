#pragma once
#include <CLI/CLI.hpp>

namespace carom::bench {

// Registers `seek`: the replay viewer's seek latency (p50, p99, worst) over
// the corpus, and its CPU when playing at 16x.
void add_seek_command(CLI::App& app);

}  // namespace carom::bench
