#pragma once
#include <CLI/CLI.hpp>

namespace carom::bench {

// Registers `capi`: a 4 v 4 stepped through libcarom's C ABI against the C++ step.
void add_capi_command(CLI::App& app);

}  // namespace carom::bench
