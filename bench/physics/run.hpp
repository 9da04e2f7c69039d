#pragma once
// Runs engines on one scene and measures them, taking turns so that a slow
// stretch of a noisy machine falls on every engine alike.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "physics/engine.hpp"
#include "physics/scene.hpp"

namespace carom::bench {

struct RunSettings {
    std::size_t warmup_steps = 60;
    std::size_t timed_steps = 600;
    // The engines take turns: each runs this many timed steps, then the next.
    std::size_t block_steps = 50;
};

struct Measurement {
    std::string_view engine;
    Layout layout;
    std::size_t disk_count;
    double us_per_step;      // mean over the timed steps
    double ke_ratio;         // kinetic energy after all steps / before the first
    std::size_t escaped;     // centres outside [0, kArenaSize]^2 (or not finite) at the end
    double max_speed;        // fastest disk at the end
    std::uint64_t scene_fp;  // of the scene as generated
    bool engine_fp_matches;  // the engine's state before stepping has the same fingerprint
    std::string notes;
};

// One measurement per engine, in the order given. Every engine builds the
// scene and warms up, then the timed steps run in turns of
// settings.block_steps, the first engine of each turn rotating.
std::vector<Measurement> measure(std::span<const EngineEntry> engines, const Scene& scene,
                                 const RunSettings& settings);

}  // namespace carom::bench
