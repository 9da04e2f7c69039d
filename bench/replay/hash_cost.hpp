#pragma once
#include <CLI/CLI.hpp>

namespace carom::bench {

// Registers `hash`: what Match::state_hash() costs per tick, with the map's
// static shapes streamed every tick (core 1-2) and folded as a digest kept
// per world (core 3), beside the step itself, on the shipped maps and on a
// map with as many walls as the map limits allow.
void add_hash_command(CLI::App& app);

}  // namespace carom::bench
