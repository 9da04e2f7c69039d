// The stadium's discs other than the ball: those that cannot move (invMass 0)
// as carom's posts, the others as movable discs.
#include <cstdint>

#include "collision_flags.hpp"
#include "field_values.hpp"
#include "importer.hpp"

namespace carom::stadium::detail {

using game::Vec2;
using nlohmann::json;
namespace groups = game::groups;

Status Importer::read_discs() {
    const auto it = root_.find("discs");
    if (it == root_.end()) return {};
    if (!it->is_array()) return refuse("discs", "must be a list");
    for (std::size_t i = 0; i < it->size(); ++i) {
        if (ball_disc_ && *ball_disc_ == i) continue;  // read by read_ball
        const auto o = traits_.object((*it)[i], index_path("discs", i),
                                      {"pos", "speed", "gravity", "radius", "invMass", "damping",
                                       "color", "bCoef", "cMask", "cGroup", "trait"},
                                      notes_);
        if (!o) return o.error();
        const json* pos = o->get("pos");
        if (pos == nullptr) return refuse(o->field("pos"), "is required");
        const auto position = point(*pos, o->field("pos"));
        if (!position) return position.error();
        Vec2 speed;
        if (const json* v = o->get("speed")) {
            const auto given = point(*v, o->field("speed"));
            if (!given) return given.error();
            speed = *given;
        }
        if (auto still = absent_or_zero(*o, "gravity", "carom's discs feel no gravity"); !still)
            return still;
        double radius = 10.0, inv_mass = 0.0, damping = 0.99, restitution = 0.5;
        if (auto read = read_numbers(*o, {{"radius", 10.0, radius},
                                          {"invMass", 0.0, inv_mass},
                                          {"damping", 0.99, damping},
                                          {"bCoef", 0.5, restitution}});
            !read)
            return read;
        const auto c = collision(*o, {groups::kAll, groups::kAll}, notes_);
        if (!c) return c.error();
        const auto drawn = colour(*o, 0xFFFFFF);
        if (!drawn) return drawn.error();
        if (inv_mass < 0.0) return refuse(o->field("invMass"), "must be 0 (a post) or more");
        if (inv_mass == 0.0) {  // immovable: a post
            if (speed.x != 0.0 || speed.y != 0.0)
                return refuse(o->field("speed"), "a post (invMass 0) cannot move");
            map_.posts.push_back({to_field(*position), radius, restitution, *c, drawn->rgb});
            sources_.add("posts", o->path());
            continue;
        }
        if ((c->group & (groups::kKick | groups::kScore)) != 0)
            return refuse(o->field("cGroup"),
                          "\"kick\" and \"score\": carom kicks and scores with the ball only");
        // Per tick in HaxBall, per second in carom (as read_ball converts).
        map_.discs.push_back({to_field(*position), speed * kTickRate, radius, 1.0 / inv_mass,
                              restitution, (1.0 - damping) * kTickRate, *c, drawn->rgb});
        sources_.add("discs", o->path());
    }
    return {};
}

}  // namespace carom::stadium::detail
