// ballPhysics and playerPhysics: the ball's and the players' bodies and
// movement as carom's tuning. HaxBall counts per tick, carom per second.
#include <algorithm>

#include "collision_flags.hpp"
#include "field_values.hpp"
#include "importer.hpp"

namespace carom::stadium::detail {

using game::Vec2;
using nlohmann::json;
namespace groups = game::groups;

namespace {

const json& no_fields() {
    static const json kEmpty = json::object();
    return kEmpty;
}

}  // namespace

// The ball: ballPhysics, or the first disc when it says "disc0".
Status Importer::read_ball() {
    game::Tuning& t = map_.tuning;
    const json* ball = nullptr;
    std::string ball_path = "ballPhysics";
    if (const auto it = root_.find("ballPhysics"); it != root_.end()) {
        if (it->is_string()) {
            if (*it != "disc0") return refuse("ballPhysics", "must be an object or \"disc0\"");
            const auto discs = root_.find("discs");
            if (discs == root_.end() || !discs->is_array() || discs->empty())
                return refuse("ballPhysics", "\"disc0\" but the stadium has no discs");
            ball = &(*discs)[0];
            ball_path = "discs[0]";
            ball_disc_ = 0;
        } else {
            ball = &*it;
        }
    }
    const auto b = traits_.object(ball ? *ball : no_fields(), ball_path,
                                  {"pos", "speed", "gravity", "radius", "invMass", "damping",
                                   "color", "bCoef", "cMask", "cGroup", "trait"},
                                  notes_);
    if (!b) return b.error();
    double inv_mass = 1.0, damping = 0.99;
    if (auto read = read_numbers(*b, {{"radius", 10.0, t.puck_radius},
                                      {"invMass", 1.0, inv_mass},
                                      {"damping", 0.99, damping},
                                      {"bCoef", 0.5, t.puck_restitution}});
        !read)
        return read;
    if (!(inv_mass > 0.0)) return refuse(b->field("invMass"), "the ball must be movable (> 0)");
    t.puck_mass = 1.0 / inv_mass;
    t.puck_drag = (1.0 - damping) * kTickRate;
    Vec2 ball_spawn{};
    if (const json* pos = b->get("pos")) {
        const auto given = point(*pos, b->field("pos"));
        if (!given) return given.error();
        ball_spawn = *given;
    }
    for (const char* still : {"speed", "gravity"}) {
        if (auto read = absent_or_zero(*b, still, "carom's ball starts at rest, with no gravity");
            !read)
            return read;
    }
    map_.puck_spawns = {to_field(ball_spawn)};
    sources_.add("puck_spawns", ball_path);
    const auto c = collision(*b, {groups::kBall, groups::kAll}, notes_);
    if (!c) return c.error();
    // The ball is what kicks reach and what scores.
    map_.puck_collision = {c->group | groups::kKick | groups::kScore, c->mask};
    if (b->get("color")) notes_.note(b->field("color"), "carom draws the ball in its own colour");
    return {};
}

Status Importer::read_player_physics() {
    game::Tuning& t = map_.tuning;
    const auto pp = root_.find("playerPhysics");
    const auto p = traits_.object(
        pp != root_.end() ? *pp : no_fields(), "playerPhysics",
        {"gravity", "radius", "invMass", "bCoef", "damping", "cGroup", "acceleration",
         "kickingAcceleration", "kickingDamping", "kickStrength", "kickback", "trait"},
        notes_);
    if (!p) return p.error();
    double acceleration = 0.1, kicking_acceleration = 0.07, player_damping = 0.96,
           kicking_damping = 0.96, kick_strength = 5.0, kickback = 0.0, player_inv_mass = 0.5;
    if (auto read = read_numbers(*p, {{"radius", 15.0, t.player_radius},
                                      {"invMass", 0.5, player_inv_mass},
                                      {"bCoef", 0.5, t.player_restitution},
                                      {"damping", 0.96, player_damping},
                                      {"acceleration", 0.1, acceleration},
                                      {"kickingAcceleration", 0.07, kicking_acceleration},
                                      {"kickingDamping", 0.96, kicking_damping},
                                      {"kickStrength", 5.0, kick_strength},
                                      {"kickback", 0.0, kickback}});
        !read)
        return read;
    if (kickback != 0.0) return refuse(p->field("kickback"), "carom's kicks do not push back");
    if (auto still = absent_or_zero(*p, "gravity", "carom's players feel no gravity"); !still)
        return still;
    if (const json* g = p->get("cGroup"); g && !(g->is_array() && g->empty()))
        return refuse(p->field("cGroup"),
                      "carom puts players in their team's group only (red or blue)");
    if (!(player_inv_mass > 0.0))
        return refuse(p->field("invMass"), "players must be movable (> 0)");
    t.player_mass = 1.0 / player_inv_mass;
    // Per tick in HaxBall, per second in carom: v += a per tick is a·60 per
    // tick of 1/60 s, a·3600 units/s²; v *= damping is a drag of (1 - damping)·60.
    t.player_acceleration = acceleration * kTickRate * kTickRate;
    t.kicking_acceleration = kicking_acceleration * kTickRate * kTickRate;
    t.player_drag = (1.0 - player_damping) * kTickRate;
    t.kicking_drag = (1.0 - kicking_damping) * kTickRate;
    // HaxBall has no speed cap: damping gives one, a / (1 - damping) a tick.
    const auto terminal = [](double a, double d) {
        return d < 1.0 ? a / (1.0 - d) * kTickRate : game::limits::kSpeedMax;
    };
    t.player_max_speed = std::min(game::limits::kSpeedMax,
                                  std::max(terminal(acceleration, player_damping),
                                           terminal(kicking_acceleration, kicking_damping)));
    t.kick_speed = kick_strength * kTickRate;
    t.kick_reach = kKickReach;
    return {};
}

}  // namespace carom::stadium::detail
