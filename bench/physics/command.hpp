#pragma once
#include <CLI/CLI.hpp>

namespace carom::bench {

// Registers `physics`: carom's physics core against Box2D and Chipmunk on the
// arena scene. Exits non-zero if an engine did not hold the generated scene.
void add_physics_command(CLI::App& app);

}  // namespace carom::bench
