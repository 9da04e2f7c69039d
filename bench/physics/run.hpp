#pragma once
// Runs one engine on one scene and measures it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "physics/engine.hpp"
#include "physics/scene.hpp"

namespace carom::bench {

struct RunSettings {
    std::size_t warmup_steps = 60;
    std::size_t timed_steps = 600;
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

Measurement measure(const EngineEntry& engine, const Scene& scene, const RunSettings& settings);

}  // namespace carom::bench
