#pragma once
#include <CLI/CLI.hpp>

namespace carom::bench {

// Registers `replay`: replay::verify speed and where a replay file's bytes go,
// on corpus files. Exits non-zero if a file is unreadable or does not verify.
void add_replay_command(CLI::App& app);

}  // namespace carom::bench
