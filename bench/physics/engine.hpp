#pragma once
// What the benchmark needs from a physics engine: build the scene, step it,
// read back where the disks are and how fast they move.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "physics/scene.hpp"

namespace carom::bench {

struct DiskMotion {
    double x;
    double y;
    double vx;
    double vy;
};

class Engine {
  public:
    virtual ~Engine() = default;
    Engine() = default;
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Advances one tick of kTimeStep.
    virtual void step() = 0;
    // One entry per disk, in scene order; `out` has one slot per disk.
    virtual void read_motion(std::span<DiskMotion> out) const = 0;
    // Engine-specific remarks about the steps run so far (empty when none).
    virtual std::string notes() const { return {}; }
};

using EngineFactory = std::unique_ptr<Engine> (*)(const Scene& scene);

struct EngineEntry {
    std::string_view name;
    EngineFactory make;
    // Library, version and the settings that matter for a fair comparison.
    std::string description;
};

std::unique_ptr<Engine> make_carom_engine(const Scene& scene);
std::unique_ptr<Engine> make_box2d_engine(const Scene& scene);
std::unique_ptr<Engine> make_chipmunk_bbtree_engine(const Scene& scene);
std::unique_ptr<Engine> make_chipmunk_hash10_engine(const Scene& scene);

std::string carom_description();
std::string box2d_description();
std::string chipmunk_description();

// Every engine, in the order the benchmark runs them.
std::vector<EngineEntry> all_engines();

}  // namespace carom::bench
