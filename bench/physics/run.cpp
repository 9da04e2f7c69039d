#include "physics/run.hpp"

#include <algorithm>
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

// One engine's world and what is known of it while the turns go round.
struct Contestant {
    const EngineEntry* entry;
    std::unique_ptr<Engine> world;
    double initial_energy = 0.0;
    bool fp_matches = false;
    std::chrono::steady_clock::duration timed{};
};

Measurement conclude(Contestant& c, const Scene& scene, std::uint64_t scene_fp,
                     const RunSettings& settings) {
    std::vector<DiskMotion> motion(scene.disks.size());
    c.world->read_motion(motion);
    std::size_t escaped = 0;
    double max_speed = 0.0;
    for (const DiskMotion& disk : motion) {
        if (!inside_arena(disk)) ++escaped;
        max_speed = std::fmax(max_speed, std::hypot(disk.vx, disk.vy));
    }
    const double elapsed_us = std::chrono::duration<double, std::micro>(c.timed).count();
    return {
        .engine = c.entry->name,
        .layout = scene.layout,
        .disk_count = scene.disks.size(),
        .us_per_step =
            settings.timed_steps > 0 ? elapsed_us / static_cast<double>(settings.timed_steps) : 0.0,
        .ke_ratio = kinetic_energy(scene, motion) / c.initial_energy,
        .escaped = escaped,
        .max_speed = max_speed,
        .scene_fp = scene_fp,
        .engine_fp_matches = c.fp_matches,
        .notes = c.world->notes(),
    };
}

}  // namespace

std::vector<Measurement> measure(std::span<const EngineEntry> engines, const Scene& scene,
                                 const RunSettings& settings) {
    const std::uint64_t scene_fp = scene_fingerprint(scene.disks);
    std::vector<Contestant> contestants;
    std::vector<DiskMotion> motion(scene.disks.size());
    for (const EngineEntry& engine : engines) {
        Contestant& c = contestants.emplace_back(Contestant{&engine, engine.make(scene)});
        c.world->read_motion(motion);
        c.initial_energy = kinetic_energy(scene, motion);
        c.fp_matches = engine_fingerprint(scene, motion) == scene_fp;
        for (std::size_t i = 0; i < settings.warmup_steps; ++i)
            c.world->step();
    }

    const std::size_t block = std::max<std::size_t>(settings.block_steps, 1);
    std::size_t first = 0;
    for (std::size_t done = 0; done < settings.timed_steps; done += block) {
        const std::size_t steps = std::min(block, settings.timed_steps - done);
        for (std::size_t k = 0; k < contestants.size(); ++k) {
            Contestant& c = contestants[(first + k) % contestants.size()];
            const auto start = std::chrono::steady_clock::now();
            for (std::size_t i = 0; i < steps; ++i)
                c.world->step();
            c.timed += std::chrono::steady_clock::now() - start;
        }
        ++first;
    }

    std::vector<Measurement> rows;
    for (Contestant& c : contestants)
        rows.push_back(conclude(c, scene, scene_fp, settings));
    return rows;
}

}  // namespace carom::bench
