// carom's own physics core, with its default WorldDef (tick 1/60).
#include <carom/physics/world.hpp>

#include <fmt/format.h>

#include "physics/engine.hpp"

namespace carom::bench {
namespace {

namespace cp = carom::physics;

// The scene's velocities are per second and the other engines step kTimeStep.
static_assert(cp::WorldDef{}.tick_seconds == kTimeStep);

class CaromEngine final : public Engine {
  public:
    explicit CaromEngine(const Scene& scene) {
        for (const WallSpec& wall : scene.walls) {
            const cp::Vec2 center{(wall.min_x + wall.max_x) / 2.0, (wall.min_y + wall.max_y) / 2.0};
            const cp::Vec2 half_extents{(wall.max_x - wall.min_x) / 2.0,
                                        (wall.max_y - wall.min_y) / 2.0};
            world_.create_box(
                cp::BoxDef{cp::Box{center, half_extents, {1.0, 0.0}}, cp::StaticDef{}});
        }
        disks_.reserve(scene.disks.size());
        for (const DiskSpec& disk : scene.disks) {
            cp::DiskDef def;
            def.position = {disk.x, disk.y};
            def.velocity = {disk.vx, disk.vy};
            def.radius = disk.radius;
            def.mass = disk.mass();
            def.material = cp::Material{1.0, 0.0};
            disks_.push_back(world_.create_disk(def));
        }
    }

    void step() override {
        world_.step();
        // Parking and an exhausted budget trade accuracy for bounded work, so
        // they are counted to show whether the timings relied on them.
        const cp::World::StepStats& stats = world_.last_step_stats();
        parked_disks_ += stats.parked_disks;
        if (stats.tick_budget_exhausted) ++budget_exhausted_ticks_;
    }

    void read_motion(std::span<DiskMotion> out) const override {
        for (std::size_t i = 0; i < disks_.size(); ++i) {
            const cp::DiskState& disk = world_.disk(disks_[i]);
            out[i] = {disk.position.x, disk.position.y, disk.velocity.x, disk.velocity.y};
        }
    }

    std::string notes() const override {
        if (parked_disks_ == 0 && budget_exhausted_ticks_ == 0) return {};
        return fmt::format("parked disk-ticks {}, ticks out of impact budget {}", parked_disks_,
                           budget_exhausted_ticks_);
    }

  private:
    cp::World world_;
    std::vector<cp::BodyId> disks_;
    std::uint64_t parked_disks_ = 0;
    std::uint64_t budget_exhausted_ticks_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_carom_engine(const Scene& scene) {
    return std::make_unique<CaromEngine>(scene);
}

std::string carom_description() {
    const cp::WorldDef defaults;
    return fmt::format(
        "carom: default WorldDef (tick {:.6g} s, {} impacts per disk, {} overlap passes)",
        defaults.tick_seconds, defaults.max_impacts_per_disk, defaults.overlap_iterations);
}

}  // namespace carom::bench
