// Vertexes, segments and planes: the stadium's walls, as carom's walls and
// posts.
#include <cmath>
#include <cstdint>

#include "arc.hpp"
#include "collision_flags.hpp"
#include "field_values.hpp"
#include "importer.hpp"

namespace carom::stadium::detail {

using game::Vec2;
using nlohmann::json;
namespace groups = game::groups;

Status Importer::read_vertexes() {
    const auto it = root_.find("vertexes");
    if (it == root_.end()) return {};
    if (!it->is_array()) return refuse("vertexes", "must be a list");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto o = traits_.object((*it)[i], index_path("vertexes", i),
                                      {"x", "y", "bCoef", "cMask", "cGroup", "trait"}, notes_);
        if (!o) return o.error();
        Vertex v{};
        if (auto read = read_numbers(*o, {{"x", NAN, v.position.x}, {"y", NAN, v.position.y}});
            !read)
            return read;
        if (std::isnan(v.position.x) || std::isnan(v.position.y))
            return refuse(o->path(), "needs x and y");
        if (auto read = read_numbers(*o, {{"bCoef", 1.0, v.restitution}}); !read) return read;
        const auto c = collision(*o, {groups::kWall, groups::kAll}, notes_);
        if (!c) return c.error();
        v.collision = *c;
        vertexes_.push_back(v);
    }
    return {};
}

Status Importer::read_segments() {
    const auto it = root_.find("segments");
    if (it == root_.end()) return {};
    if (!it->is_array()) return refuse("segments", "must be a list");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto o = traits_.object((*it)[i], index_path("segments", i),
                                      {"v0", "v1", "bCoef", "curve", "curveF", "bias", "cMask",
                                       "cGroup", "vis", "color", "trait"},
                                      notes_);
        if (!o) return o.error();
        std::size_t ends[2];
        for (int k = 0; k < 2; ++k) {
            const std::string key = k == 0 ? "v0" : "v1";
            const json* v = o->get(key);
            // JSON5 integers read as signed: an index is one from 0 up.
            if (v == nullptr || !v->is_number_integer() || v->get<std::int64_t>() < 0 ||
                v->get<std::uint64_t>() >= vertexes_.size())
                return refuse(o->field(key), "must be the index of a vertex (0 to " +
                                                 std::to_string(vertexes_.size()) + " exclusive)");
            ends[k] = v->get<std::size_t>();
        }
        if (vertexes_[ends[0]].position == vertexes_[ends[1]].position) {
            // Nothing to collide with but its ends, which stay vertexes.
            notes_.ignore(o->path(), "a segment of zero length (its ends coincide): passed over");
            continue;
        }
        game::Wall w;
        double curve = 0.0, curve_f = 0.0;
        if (auto read = read_numbers(*o, {{"bCoef", 1.0, w.restitution},
                                          {"curve", 0.0, curve},
                                          {"curveF", 0.0, curve_f},
                                          {"bias", 0.0, w.bias}});
            !read)
            return read;
        const auto c = collision(*o, {groups::kWall, groups::kAll}, notes_);
        if (!c) return c.error();
        w.collision = *c;
        if (const json* vis = o->get("vis")) {
            if (!vis->is_boolean()) return refuse(o->field("vis"), "must be true or false");
            w.visible = vis->get<bool>();
        }
        const auto drawn = colour(*o, 0x000000);
        if (!drawn) return drawn.error();
        w.color = drawn->rgb;
        if (drawn->transparent) w.visible = false;
        // carom meets a segment's ends as part of the segment: a vertex of
        // the same kind of wall needs nothing more; one that differs is a
        // point wall of its own (add_lone_vertexes).
        for (const std::size_t end : ends) {
            Vertex& v = vertexes_[end];
            if (v.collision.group == w.collision.group && v.collision.mask == w.collision.mask &&
                v.restitution == w.restitution)
                v.used = true;
        }
        w.a = to_field(vertexes_[ends[0]].position);
        w.b = to_field(vertexes_[ends[1]].position);
        if (auto bent = bend(w, curve, curve_f); !bent) return bent.error_in(o->field("curve"));
        map_.walls.push_back(w);
        sources_.add("walls", o->path());
    }
    return {};
}

// A vertex no segment of its kind ends at is a point wall: a post of the
// smallest radius.
void Importer::add_lone_vertexes() {
    for (std::size_t i = 0; i < vertexes_.size(); ++i) {
        const Vertex& v = vertexes_[i];
        if (v.used || v.collision.group == 0 || v.collision.mask == 0) continue;
        map_.posts.push_back(
            {to_field(v.position), game::limits::kRadiusMin, v.restitution, v.collision, 0});
        sources_.add("posts", index_path("vertexes", i));
        notes_.note(index_path("vertexes", i), "ends no segment of its kind: a post of radius " +
                                                   std::to_string(game::limits::kRadiusMin));
    }
}

Status Importer::read_planes() {
    const auto it = root_.find("planes");
    if (it == root_.end()) return {};
    if (!it->is_array()) return refuse("planes", "must be a list");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto o =
            traits_.object((*it)[i], index_path("planes", i),
                           {"normal", "dist", "bCoef", "cMask", "cGroup", "trait"}, notes_);
        if (!o) return o.error();
        game::Wall w;
        w.shape = game::Wall::Shape::plane;
        const json* normal = o->get("normal");
        if (normal == nullptr) return refuse(o->field("normal"), "is required");
        const auto given = point(*normal, o->field("normal"));
        if (!given) return given.error();
        w.normal = *given;
        const double length = std::sqrt(w.normal.x * w.normal.x + w.normal.y * w.normal.y);
        if (!(length > 0.0)) return refuse(o->field("normal"), "must not be zero");
        double dist = 0.0;
        if (auto read = read_numbers(*o, {{"dist", 0.0, dist}}); !read) return read;
        // dot(p, n) = dist in the file; p = q - half in the field's coordinates.
        const Vec2 n = w.normal / length;
        w.offset = dist + n.x * half_.x + n.y * half_.y;
        if (auto read = read_numbers(*o, {{"bCoef", 1.0, w.restitution}}); !read) return read;
        const auto c = collision(*o, {groups::kWall, groups::kAll}, notes_);
        if (!c) return c.error();
        w.collision = *c;
        w.visible = false;  // HaxBall does not draw planes
        map_.walls.push_back(w);
        sources_.add("walls", o->path());
    }
    return {};
}

}  // namespace carom::stadium::detail
