#pragma once
#include <CLI/CLI.hpp>

namespace carom::bench {

// Registers `statics`: what static shapes far from play cost a world: its
// build (the first step), the steps after it, and the state hash streamed
// and folded, from a few walls to 200 000, abutting in a grid or overlapping.
void add_statics_command(CLI::App& app);

}  // namespace carom::bench
