#include "physics/run.hpp"

#include <chrono>
#include <cmath>
#include <vector>

namespace carom::bench {
namespace {

double kinetic_energy(const Scene& scene, std::span<const DiskMotion> motion) {
    double energy = 0.0;
    for (std::size_t i = 0; i < motion.size(); ++i) {
        const double speed_squared = motion[i].vx * motion[i].vx + motion[i].vy * motion[i].vy;
        energy += 0.5 * scene.disks[i].mass() * speed_squared;
    }
    return energy;
}

bool inside_arena(const DiskMotion& disk) {
    // Written so that NaN counts as outside.
    return disk.x >= 0.0 && disk.x <= kArenaSize && disk.y >= 0.0 && disk.y <= kArenaSize;
}

// The scene as the engine holds it, so a mistake in building it shows up as a
// fingerprint mismatch rather than as a silently different benchmark.
std::uint64_t engine_fingerprint(const Scene& scene, std::span<const DiskMotion> motion) {
    std::vector<DiskSpec> disks;
    disks.reserve(motion.size());
    for (std::size_t i = 0; i < motion.size(); ++i) {
        disks.push_back(
            {motion[i].x, motion[i].y, scene.disks[i].radius, motion[i].vx, motion[i].vy});
    }
    return scene_fingerprint(disks);
}

}  // namespace

Measurement measure(const EngineEntry& engine, const Scene& scene, const RunSettings& settings) {
    const std::unique_ptr<Engine> world = engine.make(scene);
    std::vector<DiskMotion> motion(scene.disks.size());

    world->read_motion(motion);
    const double initial_energy = kinetic_energy(scene, motion);
    const std::uint64_t scene_fp = scene_fingerprint(scene.disks);
    const bool engine_fp_matches = engine_fingerprint(scene, motion) == scene_fp;

    for (std::size_t i = 0; i < settings.warmup_steps; ++i)
        world->step();
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < settings.timed_steps; ++i)
        world->step();
    const auto elapsed = std::chrono::steady_clock::now() - start;

    world->read_motion(motion);
    std::size_t escaped = 0;
    double max_speed = 0.0;
    for (const DiskMotion& disk : motion) {
        if (!inside_arena(disk)) ++escaped;
        max_speed = std::fmax(max_speed, std::hypot(disk.vx, disk.vy));
    }

    const double elapsed_us = std::chrono::duration<double, std::micro>(elapsed).count();
    return {
        .engine = engine.name,
        .layout = scene.layout,
        .disk_count = scene.disks.size(),
        .us_per_step =
            settings.timed_steps > 0 ? elapsed_us / static_cast<double>(settings.timed_steps) : 0.0,
        .ke_ratio = kinetic_energy(scene, motion) / initial_energy,
        .escaped = escaped,
        .max_speed = max_speed,
        .scene_fp = scene_fp,
        .engine_fp_matches = engine_fp_matches,
        .notes = world->notes(),
    };
}

}  // namespace carom::bench
