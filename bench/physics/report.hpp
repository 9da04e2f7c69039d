#pragma once
// Output of the physics benchmark: a table for people, JSON lines for scripts.
#include <span>

#include "physics/engine.hpp"
#include "physics/run.hpp"
#include "physics/scene.hpp"

namespace carom::bench {

// What was run and how, and the caveats needed to read the figures.
void print_table_preamble(std::span<const EngineEntry> engines, const RunSettings& settings);
void print_table_scene(const Scene& scene);
void print_table_row(const Measurement& m);
// carom's time per step divided by the best Chipmunk index and by Box2D.
void print_table_ratios(std::span<const Measurement> scene_rows);

// One JSON object on one line.
void print_json_measurement(const Measurement& m, const Scene& scene, const RunSettings& settings);

}  // namespace carom::bench
