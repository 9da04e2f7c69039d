#include "carom/stadium/hbs.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "carom/stadium/json5.hpp"

namespace carom::stadium {
namespace {

using game::Vec2;
using nlohmann::json;
namespace groups = game::groups;

constexpr double kTickRate = 60.0;  // HaxBall's physics runs 60 steps a second, as carom's
constexpr double kKickReach = 4.0;  // HaxBall kicks what is within 4 units of a player's edge
constexpr std::size_t kMaxFileBytes = 4u << 20;

// Refusals carry the field's path ("segments[3].curve") and the reason.
struct Refusal {
    std::string field;
    std::string reason;
};

class Importer {
  public:
    Importer(const json& root, const ImportOptions& options) : root_(root), options_(options) {}

    std::optional<Refusal> run();
    // A problem the carom map's check found ("walls[3].b: ..."), with the
    // stadium's object it came from ("... (walls[3] is the stadium's segments[5])").
    std::string in_stadium_terms(const std::string& problem) const;
    const game::Map& map() const { return map_; }
    Imported result() && { return {std::move(map_), std::move(notes_)}; }

  private:
    // A HaxBall object with its trait applied: each field from the object,
    // else from its trait, else absent.
    class Object {
      public:
        Object(const json& own, const json* trait, std::string path)
            : own_(own), trait_(trait), path_(std::move(path)) {}
        const json* get(const std::string& key) const {
            if (const auto it = own_.find(key); it != own_.end()) return &*it;
            if (trait_ != nullptr) {
                if (const auto it = trait_->find(key); it != trait_->end()) return &*it;
            }
            return nullptr;
        }
        // "vertexes[9].cMask", or "vertexes[9].cMask (from its trait)" when
        // the value is the trait's.
        std::string field(const std::string& key) const {
            const bool from_trait =
                !own_.contains(key) && trait_ != nullptr && trait_->contains(key);
            return path_ + "." + key + (from_trait ? " (from its trait)" : "");
        }
        const json& own() const { return own_; }
        const std::string& path() const { return path_; }

      private:
        const json& own_;
        const json* trait_;
        std::string path_;
    };

    std::optional<Refusal> object_at(const json& value, const std::string& path,
                                     const std::set<std::string>& known,
                                     std::optional<Object>& out);
    std::optional<Refusal> number(const Object& o, const std::string& key, double fallback,
                                  double& out) const;
    std::optional<Refusal> point(const json& value, const std::string& field, Vec2& out) const;
    std::optional<Refusal> flags(const Object& o, const std::string& key, std::uint32_t fallback,
                                 std::uint32_t& out);
    std::optional<Refusal> colour(const Object& o, std::uint32_t fallback, std::uint32_t& out,
                                  bool& visible) const;

    std::optional<Refusal> read_traits();
    std::optional<Refusal> read_vertexes();
    std::optional<Refusal> read_segments();
    void add_lone_vertexes();
    std::optional<Refusal> read_planes();
    std::optional<Refusal> read_goals();
    std::optional<Refusal> read_discs();
    std::optional<Refusal> read_physics();
    std::optional<Refusal> read_spawns();

    Vec2 to_field(Vec2 p) const { return {p.x + half_.x, p.y + half_.y}; }
    void note(const std::string& field, const std::string& why) {
        notes_.push_back(field + ": " + why);
    }
    // What the format does not have and HaxBall passes over: a key (an
    // editor's leftover, like a vertex's "pos") or a collision flag's name
    // (like ""). carom passes over it too, and says so in one note per kind
    // of field and reason ("vertexes[].pos").
    void ignore(const std::string& field, const std::string& why);
    void note_ignored();

    struct Vertex {
        Vec2 position;  // in the file's coordinates
        double restitution;
        std::uint32_t group, mask;
        bool used = false;
    };

    const json& root_;
    ImportOptions options_;
    game::Map map_;
    std::vector<std::string> notes_;
    Vec2 half_;  // width and height: the field is [-w, w] x [-h, h] in the file
    std::map<std::string, const json*> traits_;
    std::vector<Vertex> vertexes_;
    std::optional<std::size_t> ball_disc_;  // ballPhysics: "disc0"
    struct Ignored {
        std::string first;  // the first field where it was met
        std::size_t count = 0;
    };
    std::map<std::pair<std::string, std::string>, Ignored> ignored_;  // by ("list[].key", why)
    // For each list of the carom map, the stadium's object behind each entry.
    std::map<std::string, std::vector<std::string>> sources_;
    void came_from(const char* list, std::string source) {
        sources_[list].push_back(std::move(source));
    }
};

// The collision flags' names, HaxBall's bits (game::groups).
std::optional<std::uint32_t> flag_bits(const std::string& name) {
    static const std::map<std::string, std::uint32_t> kFlags = {
        {"ball", groups::kBall},
        {"red", groups::kRed},
        {"blue", groups::kBlue},
        {"redKO", groups::kRedKickoff},
        {"blueKO", groups::kBlueKickoff},
        {"wall", groups::kWall},
        {"all", groups::kAll},
        {"kick", groups::kKick},
        {"score", groups::kScore},
        {"c0", groups::kC0},
        {"c1", groups::kC1},
        {"c2", groups::kC2},
        {"c3", groups::kC3},
    };
    if (const auto it = kFlags.find(name); it != kFlags.end()) return it->second;
    return std::nullopt;
}

std::string index_path(const std::string& list, std::size_t i) {
    return list + "[" + std::to_string(i) + "]";
}

std::string Importer::in_stadium_terms(const std::string& problem) const {
    // Every "list[k]" of a list the importer filled, once each, in the
    // problem's order.
    std::vector<std::pair<std::size_t, std::string>> whence;
    for (const auto& [list, sources] : sources_) {
        const std::string prefix = list + "[";
        for (std::size_t at = problem.find(prefix); at != std::string::npos;
             at = problem.find(prefix, at + 1)) {
            if (at > 0 && (std::isalnum(static_cast<unsigned char>(problem[at - 1])) != 0 ||
                           problem[at - 1] == '_'))
                continue;  // "xposts[" is not "posts["
            const char* first = problem.data() + at + prefix.size();
            std::size_t index = 0;
            const auto [end, ec] = std::from_chars(first, problem.data() + problem.size(), index);
            if (ec != std::errc{} || *end != ']' || index >= sources.size()) continue;
            const std::string said =
                list + "[" + std::to_string(index) + "] is the stadium's " + sources[index];
            const auto same = [&](const auto& w) { return w.second == said; };
            if (std::none_of(whence.begin(), whence.end(), same)) whence.emplace_back(at, said);
        }
    }
    if (whence.empty()) return problem;
    std::sort(whence.begin(), whence.end());
    std::string out = problem + " (";
    for (std::size_t i = 0; i < whence.size(); ++i)
        out += (i > 0 ? "; " : "") + whence[i].second;
    return out + ")";
}

void Importer::ignore(const std::string& field, const std::string& why) {
    // "discs[12].x" and "discs[3].x" are one kind: "discs[].x".
    std::string kind;
    for (std::size_t i = 0; i < field.size(); ++i) {
        kind += field[i];
        if (field[i] == '[')
            while (i + 1 < field.size() && field[i + 1] != ']')
                ++i;
    }
    Ignored& seen = ignored_[{kind, why}];
    if (seen.count++ == 0) seen.first = field;
}

void Importer::note_ignored() {
    for (const auto& [kind_why, seen] : ignored_) {
        const auto& [kind, why] = kind_why;
        note(seen.first, seen.count == 1 ? why
                                         : why + " (" + std::to_string(seen.count) + " times, as " +
                                               kind + ")");
    }
}

std::optional<Refusal> Importer::object_at(const json& value, const std::string& path,
                                           const std::set<std::string>& known,
                                           std::optional<Object>& out) {
    if (!value.is_object()) return Refusal{path, "must be an object"};
    for (const auto& [key, v] : value.items()) {
        if (!known.contains(key))
            ignore(path + "." + key, "not a field of the format; ignored, as HaxBall ignores it");
    }
    const json* trait = nullptr;
    if (const auto it = value.find("trait"); it != value.end()) {
        if (!it->is_string()) return Refusal{path + ".trait", "must be a trait's name"};
        const auto found = traits_.find(it->get<std::string>());
        if (found == traits_.end())
            return Refusal{path + ".trait", "no trait named \"" + it->get<std::string>() + "\""};
        trait = found->second;
    }
    out.emplace(value, trait, path);
    return std::nullopt;
}

std::optional<Refusal> Importer::number(const Object& o, const std::string& key, double fallback,
                                        double& out) const {
    const json* v = o.get(key);
    if (v == nullptr) {
        out = fallback;
        return std::nullopt;
    }
    if (!v->is_number()) return Refusal{o.field(key), "must be a number"};
    out = v->get<double>();
    if (!std::isfinite(out)) return Refusal{o.field(key), "must be finite"};
    return std::nullopt;
}

std::optional<Refusal> Importer::point(const json& value, const std::string& field,
                                       Vec2& out) const {
    if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number())
        return Refusal{field, "must be [x, y]"};
    out = {value[0].get<double>(), value[1].get<double>()};
    if (!std::isfinite(out.x) || !std::isfinite(out.y)) return Refusal{field, "must be finite"};
    return std::nullopt;
}

std::optional<Refusal> Importer::flags(const Object& o, const std::string& key,
                                       std::uint32_t fallback, std::uint32_t& out) {
    const json* v = o.get(key);
    if (v == nullptr) {
        out = fallback;
        return std::nullopt;
    }
    if (!v->is_array()) return Refusal{o.field(key), "must be a list of collision flags"};
    out = 0;
    for (const json& name : *v) {
        if (!name.is_string()) return Refusal{o.field(key), "must be a list of collision flags"};
        const auto bits = flag_bits(name.get<std::string>());
        if (!bits) {
            ignore(o.field(key), "unknown collision flag \"" + name.get<std::string>() +
                                     "\": no bit (the flags are ball, red, blue, redKO, blueKO, "
                                     "wall, all, kick, score, c0-c3)");
            continue;
        }
        out |= *bits;
    }
    return std::nullopt;
}

std::optional<Refusal> Importer::colour(const Object& o, std::uint32_t fallback, std::uint32_t& out,
                                        bool& visible) const {
    const json* v = o.get("color");
    out = fallback;
    if (v == nullptr) return std::nullopt;
    if (v->is_string()) {
        const std::string text = v->get<std::string>();
        if (text == "transparent") {
            visible = false;
            return std::nullopt;
        }
        std::uint32_t rgb = 0;
        if (text.empty() || text.size() > 6) return Refusal{o.field("color"), "must be RRGGBB"};
        for (const char c : text) {
            const int digit = c >= '0' && c <= '9'   ? c - '0'
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                     : -1;
            if (digit < 0) return Refusal{o.field("color"), "must be RRGGBB"};
            rgb = rgb * 16 + static_cast<std::uint32_t>(digit);
        }
        out = rgb;
        return std::nullopt;
    }
    if (v->is_array() && v->size() == 3) {
        std::uint32_t rgb = 0;
        for (const json& c : *v) {
            if (!c.is_number_integer() || c.get<int>() < 0 || c.get<int>() > 255)
                return Refusal{o.field("color"), "must be [r, g, b], each 0 to 255"};
            rgb = rgb * 256 + c.get<std::uint32_t>();
        }
        out = rgb;
        return std::nullopt;
    }
    return Refusal{o.field("color"), "must be \"RRGGBB\", \"transparent\" or [r, g, b]"};
}

std::optional<Refusal> Importer::read_traits() {
    const auto it = root_.find("traits");
    if (it == root_.end()) return std::nullopt;
    if (!it->is_object()) return Refusal{"traits", "must be an object of named traits"};
    for (const auto& [name, value] : it->items()) {
        if (!value.is_object()) return Refusal{"traits." + name, "must be an object"};
        if (value.contains("trait"))
            return Refusal{"traits." + name + ".trait", "traits do not nest"};
        traits_[name] = &value;
    }
    return std::nullopt;
}

std::optional<Refusal> Importer::read_vertexes() {
    const auto it = root_.find("vertexes");
    if (it == root_.end()) return std::nullopt;
    if (!it->is_array()) return Refusal{"vertexes", "must be a list"};
    for (std::size_t i = 0; i < it->size(); ++i) {
        std::optional<Object> o;
        if (auto r = object_at((*it)[i], index_path("vertexes", i),
                               {"x", "y", "bCoef", "cMask", "cGroup", "trait"}, o))
            return r;
        Vertex v{};
        if (auto r = number(*o, "x", NAN, v.position.x)) return r;
        if (auto r = number(*o, "y", NAN, v.position.y)) return r;
        if (std::isnan(v.position.x) || std::isnan(v.position.y))
            return Refusal{o->path(), "needs x and y"};
        if (auto r = number(*o, "bCoef", 1.0, v.restitution)) return r;
        if (auto r = flags(*o, "cGroup", groups::kWall, v.group)) return r;
        if (auto r = flags(*o, "cMask", groups::kAll, v.mask)) return r;
        vertexes_.push_back(v);
    }
    return std::nullopt;
}

std::optional<Refusal> Importer::read_segments() {
    const auto it = root_.find("segments");
    if (it == root_.end()) return std::nullopt;
    if (!it->is_array()) return Refusal{"segments", "must be a list"};
    for (std::size_t i = 0; i < it->size(); ++i) {
        std::optional<Object> o;
        if (auto r = object_at((*it)[i], index_path("segments", i),
                               {"v0", "v1", "bCoef", "curve", "curveF", "bias", "cMask", "cGroup",
                                "vis", "color", "trait"},
                               o))
            return r;
        std::size_t ends[2];
        for (int k = 0; k < 2; ++k) {
            const std::string key = k == 0 ? "v0" : "v1";
            const json* v = o->get(key);
            // JSON5 integers read as signed: an index is one from 0 up.
            if (v == nullptr || !v->is_number_integer() || v->get<std::int64_t>() < 0 ||
                v->get<std::uint64_t>() >= vertexes_.size())
                return Refusal{o->field(key), "must be the index of a vertex (0 to " +
                                                  std::to_string(vertexes_.size()) + " exclusive)"};
            ends[k] = v->get<std::size_t>();
        }
        if (vertexes_[ends[0]].position == vertexes_[ends[1]].position) {
            // Nothing to collide with but its ends, which stay vertexes.
            ignore(o->path(), "a segment of zero length (its ends coincide): passed over");
            continue;
        }
        game::Wall w;
        double curve = 0.0, curve_f = 0.0;
        if (auto r = number(*o, "bCoef", 1.0, w.restitution)) return r;
        if (auto r = number(*o, "curve", 0.0, curve)) return r;
        if (auto r = number(*o, "curveF", 0.0, curve_f)) return r;
        if (auto r = number(*o, "bias", 0.0, w.bias)) return r;
        if (auto r = flags(*o, "cGroup", groups::kWall, w.collision.group)) return r;
        if (auto r = flags(*o, "cMask", groups::kAll, w.collision.mask)) return r;
        if (const json* vis = o->get("vis")) {
            if (!vis->is_boolean()) return Refusal{o->field("vis"), "must be true or false"};
            w.visible = vis->get<bool>();
        }
        if (auto r = colour(*o, 0x000000, w.color, w.visible)) return r;
        // carom meets a segment's ends as part of the segment: a vertex of
        // the same kind of wall needs nothing more; one that differs is a
        // point wall of its own (below).
        for (const std::size_t end : ends) {
            Vertex& v = vertexes_[end];
            if (v.group == w.collision.group && v.mask == w.collision.mask &&
                v.restitution == w.restitution)
                v.used = true;
        }
        Vec2 a = vertexes_[ends[0]].position;
        Vec2 b = vertexes_[ends[1]].position;
        if (curve_f == 0.0 && curve != 0.0) {
            if (!(std::abs(curve) < 360.0))
                return Refusal{o->field("curve"), "must be within (-360, 360) degrees"};
            if (curve < 0.0) {  // HaxBall's rule: the other way round, and the bias with it
                std::swap(a, b);
                w.bias = 0.0 - w.bias;  // not -bias: a bias of 0 stays +0, not -0
                curve = -curve;
            }
            curve_f = cot_half_degrees(curve);
        }
        w.a = to_field(a);
        w.b = to_field(b);
        if (curve_f != 0.0) {
            // The centre lies left of a -> b, curve_f half-chords from the
            // chord's middle: the arc runs counterclockwise from a to b.
            const Vec2 half = (w.b - w.a) * 0.5;
            w.shape = game::Wall::Shape::arc;
            w.center = w.a + half + Vec2{-half.y, half.x} * curve_f;
        }
        map_.walls.push_back(w);
        came_from("walls", o->path());
    }
    return std::nullopt;
}

// A vertex no segment of its kind ends at is a point wall: a post of the
// smallest radius.
void Importer::add_lone_vertexes() {
    for (std::size_t i = 0; i < vertexes_.size(); ++i) {
        const Vertex& v = vertexes_[i];
        if (v.used || v.group == 0 || v.mask == 0) continue;
        map_.posts.push_back(
            {to_field(v.position), game::limits::kRadiusMin, v.restitution, {v.group, v.mask}, 0});
        came_from("posts", index_path("vertexes", i));
        note(index_path("vertexes", i), "ends no segment of its kind: a post of radius " +
                                            std::to_string(game::limits::kRadiusMin));
    }
}

std::optional<Refusal> Importer::read_planes() {
    const auto it = root_.find("planes");
    if (it == root_.end()) return std::nullopt;
    if (!it->is_array()) return Refusal{"planes", "must be a list"};
    for (std::size_t i = 0; i < it->size(); ++i) {
        std::optional<Object> o;
        if (auto r = object_at((*it)[i], index_path("planes", i),
                               {"normal", "dist", "bCoef", "cMask", "cGroup", "trait"}, o))
            return r;
        game::Wall w;
        w.shape = game::Wall::Shape::plane;
        const json* normal = o->get("normal");
        if (normal == nullptr) return Refusal{o->field("normal"), "is required"};
        if (auto r = point(*normal, o->field("normal"), w.normal)) return r;
        const double length = std::sqrt(w.normal.x * w.normal.x + w.normal.y * w.normal.y);
        if (!(length > 0.0)) return Refusal{o->field("normal"), "must not be zero"};
        double dist = 0.0;
        if (auto r = number(*o, "dist", 0.0, dist)) return r;
        // dot(p, n) = dist in the file; p = q - half in the field's coordinates.
        const Vec2 n = w.normal / length;
        w.offset = dist + n.x * half_.x + n.y * half_.y;
        if (auto r = number(*o, "bCoef", 1.0, w.restitution)) return r;
        if (auto r = flags(*o, "cGroup", groups::kWall, w.collision.group)) return r;
        if (auto r = flags(*o, "cMask", groups::kAll, w.collision.mask)) return r;
        w.visible = false;  // HaxBall does not draw planes
        map_.walls.push_back(w);
        came_from("walls", o->path());
    }
    return std::nullopt;
}

std::optional<Refusal> Importer::read_goals() {
    const auto it = root_.find("goals");
    if (it == root_.end() || !it->is_array() || it->size() != 2)
        return Refusal{"goals", "carom plays with exactly two goals, one per team"};
    for (std::size_t i = 0; i < 2; ++i) {
        std::optional<Object> o;
        if (auto r = object_at((*it)[i], index_path("goals", i), {"p0", "p1", "team", "trait"}, o))
            return r;
        game::Goal g;
        const json* p0 = o->get("p0");
        const json* p1 = o->get("p1");
        const json* team = o->get("team");
        if (p0 == nullptr) return Refusal{o->field("p0"), "is required"};
        if (p1 == nullptr) return Refusal{o->field("p1"), "is required"};
        if (auto r = point(*p0, o->field("p0"), g.post_a)) return r;
        if (auto r = point(*p1, o->field("p1"), g.post_b)) return r;
        if (team == nullptr || !team->is_string() || (*team != "red" && *team != "blue"))
            return Refusal{o->field("team"), "must be \"red\" or \"blue\""};
        g.defender = *team == "red" ? game::Team::left : game::Team::right;
        g.post_a = to_field(g.post_a);
        g.post_b = to_field(g.post_b);
        map_.goals.push_back(g);
    }
    return std::nullopt;
}

std::optional<Refusal> Importer::read_discs() {
    const auto it = root_.find("discs");
    if (it == root_.end()) return std::nullopt;
    if (!it->is_array()) return Refusal{"discs", "must be a list"};
    for (std::size_t i = 0; i < it->size(); ++i) {
        if (ball_disc_ && *ball_disc_ == i) continue;  // read by read_physics
        std::optional<Object> o;
        if (auto r = object_at((*it)[i], index_path("discs", i),
                               {"pos", "speed", "gravity", "radius", "invMass", "damping", "color",
                                "bCoef", "cMask", "cGroup", "trait"},
                               o))
            return r;
        const json* pos = o->get("pos");
        if (pos == nullptr) return Refusal{o->field("pos"), "is required"};
        Vec2 position, speed;
        if (auto r = point(*pos, o->field("pos"), position)) return r;
        if (const json* v = o->get("speed")) {
            if (auto r = point(*v, o->field("speed"), speed)) return r;
        }
        if (const json* v = o->get("gravity")) {
            Vec2 gravity;
            if (auto r = point(*v, o->field("gravity"), gravity)) return r;
            if (gravity.x != 0.0 || gravity.y != 0.0)
                return Refusal{o->field("gravity"), "carom's discs feel no gravity"};
        }
        double radius = 10.0, inv_mass = 0.0, damping = 0.99, restitution = 0.5;
        if (auto r = number(*o, "radius", 10.0, radius)) return r;
        if (auto r = number(*o, "invMass", 0.0, inv_mass)) return r;
        if (auto r = number(*o, "damping", 0.99, damping)) return r;
        if (auto r = number(*o, "bCoef", 0.5, restitution)) return r;
        game::Collision collision;
        if (auto r = flags(*o, "cGroup", groups::kAll, collision.group)) return r;
        if (auto r = flags(*o, "cMask", groups::kAll, collision.mask)) return r;
        std::uint32_t color = 0xFFFFFF;
        bool visible = true;
        if (auto r = colour(*o, 0xFFFFFF, color, visible)) return r;
        if (inv_mass < 0.0) return Refusal{o->field("invMass"), "must be 0 (a post) or more"};
        if (inv_mass == 0.0) {  // immovable: a post
            if (speed.x != 0.0 || speed.y != 0.0)
                return Refusal{o->field("speed"), "a post (invMass 0) cannot move"};
            map_.posts.push_back({to_field(position), radius, restitution, collision, color});
            came_from("posts", o->path());
            continue;
        }
        if ((collision.group & (groups::kKick | groups::kScore)) != 0)
            return Refusal{o->field("cGroup"),
                           "\"kick\" and \"score\": carom kicks and scores with the ball only"};
        // Per tick in HaxBall, per second in carom (as read_physics converts).
        map_.discs.push_back({to_field(position), speed * kTickRate, radius, 1.0 / inv_mass,
                              restitution, (1.0 - damping) * kTickRate, collision, color});
        came_from("discs", o->path());
    }
    return std::nullopt;
}

std::optional<Refusal> Importer::read_physics() {
    game::Tuning& t = map_.tuning;
    // The ball: ballPhysics, or the first disc when it says "disc0".
    const json* ball = nullptr;
    std::string ball_path = "ballPhysics";
    if (const auto it = root_.find("ballPhysics"); it != root_.end()) {
        if (it->is_string()) {
            if (*it != "disc0") return Refusal{"ballPhysics", "must be an object or \"disc0\""};
            const auto discs = root_.find("discs");
            if (discs == root_.end() || !discs->is_array() || discs->empty())
                return Refusal{"ballPhysics", "\"disc0\" but the stadium has no discs"};
            ball = &(*discs)[0];
            ball_path = "discs[0]";
            ball_disc_ = 0;
        } else {
            ball = &*it;
        }
    }
    static const json kEmpty = json::object();
    std::optional<Object> b;
    if (auto r = object_at(ball ? *ball : kEmpty, ball_path,
                           {"pos", "speed", "gravity", "radius", "invMass", "damping", "color",
                            "bCoef", "cMask", "cGroup", "trait"},
                           b))
        return r;
    double inv_mass = 1.0, damping = 0.99;
    if (auto r = number(*b, "radius", 10.0, t.puck_radius)) return r;
    if (auto r = number(*b, "invMass", 1.0, inv_mass)) return r;
    if (auto r = number(*b, "damping", 0.99, damping)) return r;
    if (auto r = number(*b, "bCoef", 0.5, t.puck_restitution)) return r;
    if (!(inv_mass > 0.0)) return Refusal{b->field("invMass"), "the ball must be movable (> 0)"};
    t.puck_mass = 1.0 / inv_mass;
    t.puck_drag = (1.0 - damping) * kTickRate;
    Vec2 ball_spawn{};
    if (const json* pos = b->get("pos")) {
        if (auto r = point(*pos, b->field("pos"), ball_spawn)) return r;
    }
    for (const char* still : {"speed", "gravity"}) {
        if (const json* v = b->get(still)) {
            Vec2 value;
            if (auto r = point(*v, b->field(still), value)) return r;
            if (value.x != 0.0 || value.y != 0.0)
                return Refusal{b->field(still), "carom's ball starts at rest, with no gravity"};
        }
    }
    map_.puck_spawns = {to_field(ball_spawn)};
    came_from("puck_spawns", ball_path);
    std::uint32_t group = 0;
    if (auto r = flags(*b, "cGroup", groups::kBall, group)) return r;
    map_.puck_collision = {group | groups::kKick | groups::kScore, groups::kAll};
    if (auto r = flags(*b, "cMask", groups::kAll, map_.puck_collision.mask)) return r;
    if (b->get("color")) note(b->field("color"), "carom draws the ball in its own colour");

    std::optional<Object> p;
    const auto pp = root_.find("playerPhysics");
    if (auto r = object_at(
            pp != root_.end() ? *pp : kEmpty, "playerPhysics",
            {"gravity", "radius", "invMass", "bCoef", "damping", "cGroup", "acceleration",
             "kickingAcceleration", "kickingDamping", "kickStrength", "kickback", "trait"},
            p))
        return r;
    double acceleration = 0.1, kicking_acceleration = 0.07, player_damping = 0.96,
           kicking_damping = 0.96, kick_strength = 5.0, kickback = 0.0, player_inv_mass = 0.5;
    if (auto r = number(*p, "radius", 15.0, t.player_radius)) return r;
    if (auto r = number(*p, "invMass", 0.5, player_inv_mass)) return r;
    if (auto r = number(*p, "bCoef", 0.5, t.player_restitution)) return r;
    if (auto r = number(*p, "damping", 0.96, player_damping)) return r;
    if (auto r = number(*p, "acceleration", 0.1, acceleration)) return r;
    if (auto r = number(*p, "kickingAcceleration", 0.07, kicking_acceleration)) return r;
    if (auto r = number(*p, "kickingDamping", 0.96, kicking_damping)) return r;
    if (auto r = number(*p, "kickStrength", 5.0, kick_strength)) return r;
    if (auto r = number(*p, "kickback", 0.0, kickback)) return r;
    if (kickback != 0.0) return Refusal{p->field("kickback"), "carom's kicks do not push back"};
    if (const json* g = p->get("gravity")) {
        Vec2 value;
        if (auto r = point(*g, p->field("gravity"), value)) return r;
        if (value.x != 0.0 || value.y != 0.0)
            return Refusal{p->field("gravity"), "carom's players feel no gravity"};
    }
    if (const json* g = p->get("cGroup"); g && !(g->is_array() && g->empty()))
        return Refusal{p->field("cGroup"),
                       "carom puts players in their team's group only (red or blue)"};
    if (!(player_inv_mass > 0.0))
        return Refusal{p->field("invMass"), "players must be movable (> 0)"};
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
    return std::nullopt;
}

std::optional<Refusal> Importer::read_spawns() {
    std::vector<Vec2> red, blue;
    for (const auto& [key, list] :
         {std::pair{"redSpawnPoints", &red}, std::pair{"blueSpawnPoints", &blue}}) {
        const auto it = root_.find(key);
        if (it == root_.end()) continue;
        if (!it->is_array()) return Refusal{key, "must be a list of [x, y]"};
        for (std::size_t i = 0; i < it->size(); ++i) {
            Vec2 p;
            if (auto r = point((*it)[i], index_path(key, i), p)) return r;
            list->push_back(to_field(p));
        }
    }
    double distance = 0.0;
    if (const auto it = root_.find("spawnDistance"); it != root_.end()) {
        if (!it->is_number() || !std::isfinite(it->get<double>()))
            return Refusal{"spawnDistance", "must be a number"};
        distance = it->get<double>();
    }
    std::uint32_t team_size = options_.team_size;
    if (team_size == 0) {
        team_size = !red.empty() && !blue.empty()
                        ? static_cast<std::uint32_t>(std::min(red.size(), blue.size()))
                        : 3;
        team_size = std::min(team_size, game::limits::kTeamSizeMax);
    }
    map_.team_size = team_size;
    // Without spawn points, HaxBall lines a team up at spawnDistance from
    // the centre: here one above the other, a player and a half apart.
    const double step = 3.0 * map_.tuning.player_radius;
    for (const auto& [team, list, side] :
         {std::tuple{game::Team::left, &red, -1.0}, std::tuple{game::Team::right, &blue, 1.0}}) {
        for (std::uint32_t k = 0; k < team_size; ++k) {
            Vec2 at;
            if (!list->empty()) {
                if (k >= list->size())
                    return Refusal{side < 0 ? "redSpawnPoints" : "blueSpawnPoints",
                                   std::to_string(list->size()) + " points for a team of " +
                                       std::to_string(team_size)};
                at = (*list)[k];
                came_from("spawns", index_path(side < 0 ? "redSpawnPoints" : "blueSpawnPoints", k));
            } else {
                const double rank = static_cast<double>((k + 1) / 2) * (k % 2 == 1 ? 1.0 : -1.0);
                at = to_field({side * distance, rank * step});
                came_from("spawns", "spawnDistance");
            }
            map_.spawns.push_back({team, at});
        }
    }
    return std::nullopt;
}

std::optional<Refusal> Importer::run() {
    if (!root_.is_object()) return Refusal{"(the file)", "a stadium is one object"};
    static const std::set<std::string> kKnown = {"name",
                                                 "width",
                                                 "height",
                                                 "cameraWidth",
                                                 "cameraHeight",
                                                 "maxViewWidth",
                                                 "cameraFollow",
                                                 "spawnDistance",
                                                 "canBeStored",
                                                 "kickOffReset",
                                                 "bg",
                                                 "traits",
                                                 "vertexes",
                                                 "segments",
                                                 "goals",
                                                 "discs",
                                                 "planes",
                                                 "joints",
                                                 "redSpawnPoints",
                                                 "blueSpawnPoints",
                                                 "playerPhysics",
                                                 "ballPhysics"};
    for (const auto& [key, value] : root_.items()) {
        if (!kKnown.contains(key))
            ignore(key, "not a field of the format; ignored, as HaxBall ignores it");
    }
    const auto name = root_.find("name");
    if (name == root_.end() || !name->is_string()) return Refusal{"name", "a name is required"};
    map_.name = name->get<std::string>();
    for (const char* key : {"width", "height"}) {
        const auto it = root_.find(key);
        if (it == root_.end() || !it->is_number() || !(it->get<double>() > 0.0))
            return Refusal{key, "must be a number above 0 (half the field's extent)"};
    }
    half_ = {root_["width"].get<double>(), root_["height"].get<double>()};
    map_.size = half_ * 2.0;
    map_.team_size = 1;
    map_.match_seconds = options_.match_seconds;
    map_.score_limit = options_.score_limit;
    map_.kickoff_nudge = false;  // HaxBall's ball waits at rest for the kick-off

    if (const auto it = root_.find("joints"); it != root_.end()) {
        if (!it->is_array()) return Refusal{"joints", "must be a list"};
        if (!it->empty()) return Refusal{"joints", "carom has no joints between discs"};
    }
    if (const auto it = root_.find("kickOffReset"); it != root_.end()) {
        if (*it != "partial" && *it != "full")
            return Refusal{"kickOffReset", "must be \"partial\" or \"full\""};
        // "partial" resets the ball and the players, "full" the movable discs too.
        map_.kickoff_resets_discs = *it == "full";
    }
    for (const char* view : {"cameraWidth", "cameraHeight", "maxViewWidth", "cameraFollow"}) {
        if (root_.contains(view)) note(view, "carom's client shows the whole field");
    }
    if (root_.contains("canBeStored")) note("canBeStored", "a HaxBall room setting");
    if (root_.contains("bg")) note("bg", "carom draws its own pitch (walls, goals and posts)");

    if (auto r = read_traits()) return r;
    if (auto r = read_physics()) return r;  // first: "disc0" takes the first disc as the ball
    if (auto r = read_vertexes()) return r;
    if (auto r = read_segments()) return r;
    add_lone_vertexes();
    if (auto r = read_planes()) return r;
    if (auto r = read_goals()) return r;
    if (auto r = read_discs()) return r;
    if (auto r = read_spawns()) return r;
    note_ignored();
    return std::nullopt;
}

// sin and cos of x (radians, |x| <= pi) by their Taylor series, summed
// until the terms vanish: + - * / only, the same bits everywhere.
void sin_cos(double x, double& s, double& c) {
    double term_s = x, term_c = 1.0;
    s = 0.0;
    c = 0.0;
    for (int k = 1; k < 40; ++k) {
        s += term_s;
        c += term_c;
        term_s = -term_s * x * x / ((2.0 * k) * (2.0 * k + 1.0));
        term_c = -term_c * x * x / ((2.0 * k - 1.0) * (2.0 * k));
    }
}

}  // namespace

double cot_half_degrees(double degrees) {
    constexpr double kPi = 3.141592653589793238462643383279502884;
    const double half = degrees * (kPi / 360.0);
    double s = 0.0, c = 0.0;
    sin_cos(half, s, c);
    return c / s;
}

Result<Imported> import_stadium(std::string_view text, const std::string& where,
                                const ImportOptions& options) {
    Json5Limits limits;
    limits.max_bytes = kMaxFileBytes;
    auto root = parse_json5(text, limits);
    if (!root) return root.error_in(where);
    Importer importer(*root, options);
    if (const auto refused = importer.run())
        return fail(where + ": " + refused->field + ": " + refused->reason);
    if (const Status valid = game::validate(importer.map()); !valid)
        return fail(where +
                    ": as a carom map: " + importer.in_stadium_terms(valid.error().message));
    return std::move(importer).result();
}

Result<Imported> load_stadium_file(const std::filesystem::path& path,
                                   const ImportOptions& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(path.string() + ": cannot open the stadium file");
    std::string text(kMaxFileBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) return fail(path.string() + ": read error");
    text.resize(static_cast<std::size_t>(in.gcount()));
    return import_stadium(text, path.string(), options);
}

}  // namespace carom::stadium
