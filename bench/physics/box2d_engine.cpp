// Box2D 2.4 with the settings its manual recommends for a fixed 60 Hz step.
#include <box2d/box2d.h>

#include <fmt/format.h>

#include "physics/engine.hpp"

namespace carom::bench {
namespace {

// Box2D's recommended solver iterations.
constexpr int kVelocityIterations = 8;
constexpr int kPositionIterations = 3;

class Box2dEngine final : public Engine {
  public:
    explicit Box2dEngine(const Scene& scene) : world_(b2Vec2(0.0f, 0.0f)) {
        // Carom and Chipmunk (by default) never put bodies to sleep; a gas with
        // no damping rarely would, but this rules it out as a source of speed.
        world_.SetAllowSleeping(false);

        b2BodyDef wall_body_def;  // static, at the origin
        b2Body* walls = world_.CreateBody(&wall_body_def);
        for (const WallSpec& wall : scene.walls) {
            b2PolygonShape box;
            const b2Vec2 center(static_cast<float>((wall.min_x + wall.max_x) / 2.0),
                                static_cast<float>((wall.min_y + wall.max_y) / 2.0));
            box.SetAsBox(static_cast<float>((wall.max_x - wall.min_x) / 2.0),
                         static_cast<float>((wall.max_y - wall.min_y) / 2.0), center, 0.0f);
            b2FixtureDef fixture;
            fixture.shape = &box;
            fixture.friction = 0.0f;
            fixture.restitution = 1.0f;
            fixture.restitutionThreshold = 0.0f;
            walls->CreateFixture(&fixture);
        }

        disks_.reserve(scene.disks.size());
        for (const DiskSpec& disk : scene.disks) {
            b2BodyDef body_def;
            body_def.type = b2_dynamicBody;
            body_def.position.Set(static_cast<float>(disk.x), static_cast<float>(disk.y));
            body_def.linearVelocity.Set(static_cast<float>(disk.vx), static_cast<float>(disk.vy));
            body_def.linearDamping = 0.0f;
            body_def.angularDamping = 0.0f;
            // Rotation left free (the default): with zero friction no torque
            // ever acts, and Chipmunk is given a real moment of inertia too.
            b2Body* body = world_.CreateBody(&body_def);

            b2CircleShape circle;
            circle.m_radius = static_cast<float>(disk.radius);
            b2FixtureDef fixture;
            fixture.shape = &circle;
            fixture.density = static_cast<float>(kDensity);
            fixture.friction = 0.0f;
            fixture.restitution = 1.0f;
            // The default (1 unit/s) makes slow impacts perfectly inelastic.
            fixture.restitutionThreshold = 0.0f;
            body->CreateFixture(&fixture);
            disks_.push_back(body);
        }
    }

    void step() override {
        world_.Step(static_cast<float>(kTimeStep), kVelocityIterations, kPositionIterations);
    }

    void read_motion(std::span<DiskMotion> out) const override {
        for (std::size_t i = 0; i < disks_.size(); ++i) {
            const b2Vec2& position = disks_[i]->GetPosition();
            const b2Vec2& velocity = disks_[i]->GetLinearVelocity();
            out[i] = {position.x, position.y, velocity.x, velocity.y};
        }
    }

  private:
    b2World world_;
    std::vector<b2Body*> disks_;  // owned by world_
};

}  // namespace

std::unique_ptr<Engine> make_box2d_engine(const Scene& scene) {
    return std::make_unique<Box2dEngine>(scene);
}

std::string box2d_description() {
    const double max_translation = b2_maxTranslation;
    return fmt::format(
        "Box2D (b2_version {}.{}.{}; Debian 2.4.1 reports 2.4.0): Step(dt, {}, {}), restitution "
        "threshold 0, sleeping off; clamps a body's move to b2_maxTranslation = {} units per step "
        "({} units/s at 60 Hz)",
        b2_version.major, b2_version.minor, b2_version.revision, kVelocityIterations,
        kPositionIterations, max_translation, max_translation / kTimeStep);
}

}  // namespace carom::bench
