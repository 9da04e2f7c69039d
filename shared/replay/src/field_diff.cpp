#include "carom/replay/field_diff.hpp"

#include <algorithm>
#include <bit>

#include "carom/number_text.hpp"

namespace carom::replay {
namespace {

using game::Box;
using game::Segment;
using game::Vec2;

std::string text(std::uint64_t v) {
    return std::to_string(v);
}
std::string text(bool v) {
    return v ? "true" : "false";
}
std::string text(const std::string& v) {
    return v;
}
std::string text(const std::optional<game::Slot>& v) {
    return v ? std::to_string(*v) : "none";
}

class Differ {
  public:
    explicit Differ(std::vector<FieldDiff>& out) : out_(out) {}
    template <class T>
    void field(const std::string& entity, const std::string& name, const T& a, const T& b) {
        if (!(a == b)) out_.push_back({entity, name, text(a), text(b)});
    }
    void field(const std::string& entity, const std::string& name, double a, double b) {
        // Bit patterns, so that -0.0 against 0.0 is a difference too.
        if (std::bit_cast<std::uint64_t>(a) != std::bit_cast<std::uint64_t>(b))
            out_.push_back({entity, name, exact(a), exact(b)});
    }
    void vec(const std::string& entity, const std::string& name, Vec2 a, Vec2 b) {
        field(entity, name + ".x", a.x, b.x);
        field(entity, name + ".y", a.y, b.y);
    }
    void disk(const std::string& entity, const game::DiskMotion& a, const game::DiskMotion& b) {
        vec(entity, "position", a.position, b.position);
        vec(entity, "velocity", a.velocity, b.velocity);
    }
    // Lists of different lengths: the count, then the common part.
    template <class T, class Each>
    void list(const std::string& name, const std::vector<T>& a, const std::vector<T>& b,
              Each&& each) {
        field<std::uint64_t>("map", name + " count", a.size(), b.size());
        for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            each(name + "[" + std::to_string(i) + "]", a[i], b[i]);
    }

  private:
    std::vector<FieldDiff>& out_;
};

void diff_tuning(Differ& d, const game::Tuning& a, const game::Tuning& b) {
    const std::string e = "map tuning";
    d.field(e, "player_radius", a.player_radius, b.player_radius);
    d.field(e, "player_mass", a.player_mass, b.player_mass);
    d.field(e, "puck_radius", a.puck_radius, b.puck_radius);
    d.field(e, "puck_mass", a.puck_mass, b.puck_mass);
    d.field(e, "player_acceleration", a.player_acceleration, b.player_acceleration);
    d.field(e, "player_max_speed", a.player_max_speed, b.player_max_speed);
    d.field(e, "player_drag", a.player_drag, b.player_drag);
    d.field(e, "puck_drag", a.puck_drag, b.puck_drag);
    d.field(e, "kick_speed", a.kick_speed, b.kick_speed);
    d.field(e, "kick_reach", a.kick_reach, b.kick_reach);
    d.field<std::uint64_t>(e, "kick_cooldown_ticks", a.kick_cooldown_ticks, b.kick_cooldown_ticks);
    d.field(e, "wall_restitution", a.wall_restitution, b.wall_restitution);
    d.field(e, "player_restitution", a.player_restitution, b.player_restitution);
    d.field(e, "puck_restitution", a.puck_restitution, b.puck_restitution);
    d.field(e, "kicking_acceleration", a.kicking_acceleration, b.kicking_acceleration);
    d.field(e, "kicking_drag", a.kicking_drag, b.kicking_drag);
}

void diff_collision(Differ& d, const std::string& e, const game::Collision& a,
                    const game::Collision& b) {
    d.field<std::uint64_t>(e, "collision.group", a.group, b.group);
    d.field<std::uint64_t>(e, "collision.mask", a.mask, b.mask);
}

// HaxBall's stadium fields (empty in maps of boxes and segments).
void diff_stadium(Differ& d, const game::Map& a, const game::Map& b) {
    d.list("walls", a.walls, b.walls,
           [&](const std::string& e, const game::Wall& p, const game::Wall& q) {
               const std::string w = "map " + e;
               d.field<std::uint64_t>(w, "shape", static_cast<std::uint64_t>(p.shape),
                                      static_cast<std::uint64_t>(q.shape));
               d.vec(w, "a", p.a, q.a);
               d.vec(w, "b", p.b, q.b);
               d.vec(w, "center", p.center, q.center);
               d.vec(w, "normal", p.normal, q.normal);
               d.field(w, "offset", p.offset, q.offset);
               d.field(w, "bias", p.bias, q.bias);
               d.field(w, "restitution", p.restitution, q.restitution);
               diff_collision(d, w, p.collision, q.collision);
           });
    d.list("posts", a.posts, b.posts,
           [&](const std::string& e, const game::Post& p, const game::Post& q) {
               d.vec("map " + e, "position", p.position, q.position);
               d.field("map " + e, "radius", p.radius, q.radius);
               d.field("map " + e, "restitution", p.restitution, q.restitution);
               diff_collision(d, "map " + e, p.collision, q.collision);
           });
    d.list("discs", a.discs, b.discs,
           [&](const std::string& e, const game::Disc& p, const game::Disc& q) {
               d.vec("map " + e, "position", p.position, q.position);
               d.vec("map " + e, "velocity", p.velocity, q.velocity);
               d.field("map " + e, "radius", p.radius, q.radius);
               d.field("map " + e, "mass", p.mass, q.mass);
               d.field("map " + e, "restitution", p.restitution, q.restitution);
               d.field("map " + e, "drag", p.drag, q.drag);
               diff_collision(d, "map " + e, p.collision, q.collision);
           });
    diff_collision(d, "map puck", a.puck_collision, b.puck_collision);
    d.field("map", "kickoff_nudge", a.kickoff_nudge, b.kickoff_nudge);
    d.field("map", "kickoff_resets_discs", a.kickoff_resets_discs, b.kickoff_resets_discs);
}

void diff_maps(Differ& d, const game::Map& a, const game::Map& b) {
    d.field("map", "name", a.name, b.name);
    d.vec("map", "size", a.size, b.size);
    d.list("boxes", a.boxes, b.boxes, [&](const std::string& e, const Box& p, const Box& q) {
        d.vec("map " + e, "center", p.center, q.center);
        d.vec("map " + e, "half_extents", p.half_extents, q.half_extents);
        d.vec("map " + e, "axis", p.axis, q.axis);
    });
    d.list("segments", a.segments, b.segments,
           [&](const std::string& e, const Segment& p, const Segment& q) {
               d.vec("map " + e, "a", p.a, q.a);
               d.vec("map " + e, "b", p.b, q.b);
           });
    d.list("goals", a.goals, b.goals,
           [&](const std::string& e, const game::Goal& p, const game::Goal& q) {
               d.field<std::uint64_t>("map " + e, "defender", game::index_of(p.defender),
                                      game::index_of(q.defender));
               d.vec("map " + e, "post_a", p.post_a, q.post_a);
               d.vec("map " + e, "post_b", p.post_b, q.post_b);
           });
    d.list("spawns", a.spawns, b.spawns,
           [&](const std::string& e, const game::Spawn& p, const game::Spawn& q) {
               d.field<std::uint64_t>("map " + e, "team", game::index_of(p.team),
                                      game::index_of(q.team));
               d.vec("map " + e, "position", p.position, q.position);
           });
    d.list("puck_spawns", a.puck_spawns, b.puck_spawns,
           [&](const std::string& e, Vec2 p, Vec2 q) { d.vec("map " + e, "position", p, q); });
    d.field<std::uint64_t>("map", "team_size", a.team_size, b.team_size);
    d.field<std::uint64_t>("map", "match_seconds", a.match_seconds, b.match_seconds);
    d.field<std::uint64_t>("map", "score_limit", a.score_limit, b.score_limit);
    diff_tuning(d, a.tuning, b.tuning);
    diff_stadium(d, a, b);
}

}  // namespace

std::string exact(double v) {
    return number_text(v);
}

std::vector<FieldDiff> diff_states(const game::MatchState& a, const game::MatchState& b) {
    std::vector<FieldDiff> out;
    Differ d(out);
    d.field("match", "tick", a.tick, b.tick);
    d.field<std::uint64_t>("match", "phase", static_cast<std::uint64_t>(a.phase),
                           static_cast<std::uint64_t>(b.phase));
    d.field<std::uint64_t>("match", "phase_ticks", a.phase_ticks, b.phase_ticks);
    d.field<std::uint64_t>("match", "score.left", a.score[0], b.score[0]);
    d.field<std::uint64_t>("match", "score.right", a.score[1], b.score[1]);
    d.field("match", "rng", a.rng, b.rng);
    const auto team = [](const std::optional<game::Team>& t) -> std::uint64_t {
        return t ? game::index_of(*t) + 1u : 0u;  // 0 none, 1 left, 2 right
    };
    d.field<std::uint64_t>("match", "kickoff_team", team(a.kickoff_team), team(b.kickoff_team));
    const auto count = [](const game::MatchState& s) {
        return text(std::uint64_t{s.players.size()}) + " players, " +
               text(std::uint64_t{s.pucks.size()}) + " pucks, " +
               text(std::uint64_t{s.discs.size()}) + " discs";
    };
    if (a.players.size() != b.players.size() || a.pucks.size() != b.pucks.size() ||
        a.discs.size() != b.discs.size()) {
        out.push_back({"match", "entity count", count(a), count(b)});
        return out;
    }
    for (std::size_t i = 0; i < a.players.size(); ++i) {
        const game::PlayerState& p = a.players[i];
        const game::PlayerState& q = b.players[i];
        const std::string entity =
            "player " + std::to_string(i) + (p.name.empty() ? "" : " (" + p.name + ")");
        d.field(entity, "active", p.active, q.active);
        d.field(entity, "name", p.name, q.name);
        d.field<std::uint64_t>(entity, "input", p.last_input.bits(), q.last_input.bits());
        d.field<std::uint64_t>(entity, "kick_cooldown", p.kick_cooldown, q.kick_cooldown);
        d.field<std::uint64_t>(entity, "goals", p.goals, q.goals);
        d.disk(entity, p.disk, q.disk);
    }
    for (std::size_t i = 0; i < a.pucks.size(); ++i) {
        const std::string entity = "puck " + std::to_string(i);
        d.disk(entity, a.pucks[i].disk, b.pucks[i].disk);
        d.field(entity, "last_kicker", a.pucks[i].last_kicker, b.pucks[i].last_kicker);
    }
    for (std::size_t i = 0; i < a.discs.size(); ++i)
        d.disk("disc " + std::to_string(i), a.discs[i], b.discs[i]);
    return out;
}

std::vector<FieldDiff> diff_world(std::span<const std::uint64_t> recorded,
                                  std::span<const physics::HashedValue> named,
                                  std::size_t max_fields) {
    std::vector<FieldDiff> out;
    const auto value = [](std::uint64_t bits, bool real) {
        return real ? exact(std::bit_cast<double>(bits)) : std::to_string(bits);
    };
    const std::size_t common = std::min(recorded.size(), named.size());
    for (std::size_t i = 0; i < common && out.size() < max_fields; ++i) {
        const physics::HashedValue& v = named[i];
        if (recorded[i] != v.bits)
            out.push_back({v.entity, v.field, value(recorded[i], v.real), value(v.bits, v.real)});
    }
    if (recorded.size() != named.size())
        out.push_back({"world", "hashed values", std::to_string(recorded.size()),
                       std::to_string(named.size())});
    return out;
}

std::vector<FieldDiff> diff_starts(const Header& a, const Header& b) {
    std::vector<FieldDiff> out;
    Differ d(out);
    d.field<std::uint64_t>("header", "format_version", a.format_version, b.format_version);
    d.field<std::uint64_t>("header", "core_version", a.core_version, b.core_version);
    d.field("header", "seed", a.seed, b.seed);
    d.field<std::uint64_t>("header", "tick_rate", a.tick_rate, b.tick_rate);
    d.field<std::uint64_t>("header", "final_pause_ticks", a.final_pause_ticks, b.final_pause_ticks);
    d.field<std::uint64_t>("header", "start_tick", a.start_tick, b.start_tick);
    const auto parent = [](const Header& h) {
        return h.parent ? to_hex(h.parent->hash) + " (" + h.parent->name + ")"
                        : std::string("none");
    };
    d.field("header", "parent", parent(a), parent(b));
    d.field<std::uint64_t>("header", "players count", a.players.size(), b.players.size());
    for (std::size_t i = 0; i < std::min(a.players.size(), b.players.size()); ++i) {
        const std::string e = "header player " + std::to_string(i);
        d.field<std::uint64_t>(e, "slot", a.players[i].slot, b.players[i].slot);
        d.field(e, "name", a.players[i].name, b.players[i].name);
        d.field(e, "bot", a.players[i].bot, b.players[i].bot);
    }
    diff_maps(d, a.map, b.map);
    return out;
}

}  // namespace carom::replay
