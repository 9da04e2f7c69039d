// Chipmunk 7 with default settings (10 solver iterations), run once with its
// default bounding-box tree and once with a spatial hash of 10-unit cells.
#include <chipmunk/chipmunk.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "physics/engine.hpp"

namespace carom::bench {
namespace {

constexpr double kHashCellSize = 10.0;

enum class BroadPhase : std::uint8_t { bbtree, hash10 };

// A Chipmunk built without NDEBUG prints a banner to stdout when the first
// space is created, which would corrupt --json output; send it to /dev/null.
cpSpace* new_space_quietly() {
    static bool banner_printed = false;
    if (banner_printed) return cpSpaceNew();
    banner_printed = true;

    std::fflush(stdout);
    const int saved_stdout = dup(STDOUT_FILENO);
    const int null_fd = open("/dev/null", O_WRONLY);
    if (saved_stdout < 0 || null_fd < 0) {
        if (saved_stdout >= 0) close(saved_stdout);
        if (null_fd >= 0) close(null_fd);
        return cpSpaceNew();
    }
    dup2(null_fd, STDOUT_FILENO);
    close(null_fd);
    cpSpace* space = cpSpaceNew();
    std::fflush(stdout);
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
    return space;
}

class ChipmunkEngine final : public Engine {
  public:
    ChipmunkEngine(const Scene& scene, BroadPhase broad_phase) : space_(new_space_quietly()) {
        // Gravity zero, damping 1 (none) and sleeping off are Chipmunk's defaults.
        if (broad_phase == BroadPhase::hash10) {
            cpSpaceUseSpatialHash(space_, kHashCellSize, static_cast<int>(scene.disks.size()));
        }

        cpBody* static_body = cpSpaceGetStaticBody(space_);
        for (const WallSpec& wall : scene.walls) {
            cpShape* shape = cpBoxShapeNew2(
                static_body, cpBBNew(wall.min_x, wall.min_y, wall.max_x, wall.max_y), 0.0);
            cpShapeSetElasticity(shape, 1.0);
            cpShapeSetFriction(shape, 0.0);
            shapes_.push_back(cpSpaceAddShape(space_, shape));
        }

        disks_.reserve(scene.disks.size());
        shapes_.reserve(shapes_.size() + scene.disks.size());
        for (const DiskSpec& disk : scene.disks) {
            const double mass = disk.mass();
            cpBody* body = cpSpaceAddBody(
                space_, cpBodyNew(mass, cpMomentForCircle(mass, 0.0, disk.radius, cpvzero)));
            cpBodySetPosition(body, cpv(disk.x, disk.y));
            cpBodySetVelocity(body, cpv(disk.vx, disk.vy));
            cpShape* shape = cpCircleShapeNew(body, disk.radius, cpvzero);
            cpShapeSetElasticity(shape, 1.0);
            cpShapeSetFriction(shape, 0.0);
            shapes_.push_back(cpSpaceAddShape(space_, shape));
            disks_.push_back(body);
        }
    }

    ~ChipmunkEngine() override {
        // A space does not own its shapes and bodies; detach them, then free all.
        for (cpShape* shape : shapes_) {
            cpSpaceRemoveShape(space_, shape);
            cpShapeFree(shape);
        }
        for (cpBody* body : disks_) {
            cpSpaceRemoveBody(space_, body);
            cpBodyFree(body);
        }
        cpSpaceFree(space_);
    }

    void step() override { cpSpaceStep(space_, kTimeStep); }

    void read_motion(std::span<DiskMotion> out) const override {
        for (std::size_t i = 0; i < disks_.size(); ++i) {
            const cpVect position = cpBodyGetPosition(disks_[i]);
            const cpVect velocity = cpBodyGetVelocity(disks_[i]);
            out[i] = {position.x, position.y, velocity.x, velocity.y};
        }
    }

  private:
    cpSpace* space_;
    std::vector<cpBody*> disks_;
    std::vector<cpShape*> shapes_;
};

}  // namespace

std::unique_ptr<Engine> make_chipmunk_bbtree_engine(const Scene& scene) {
    return std::make_unique<ChipmunkEngine>(scene, BroadPhase::bbtree);
}

std::unique_ptr<Engine> make_chipmunk_hash10_engine(const Scene& scene) {
    return std::make_unique<ChipmunkEngine>(scene, BroadPhase::hash10);
}

std::string chipmunk_description() {
    return fmt::format(
        "Chipmunk {}: cpSpaceStep(dt), default 10 iterations; 'bbtree' is the default index, "
        "'hash10' is cpSpaceUseSpatialHash(space, {}, n)",
        cpVersionString, kHashCellSize);
}

}  // namespace carom::bench
