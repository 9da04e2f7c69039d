#include "carom/protocol/map_codec.hpp"

#include "carom/protocol/map_transfer.hpp"

#include <cstdint>
#include <optional>

namespace carom::protocol {
namespace {

schema::Vec2 to_schema(game::Vec2 v) {
    return {v.x, v.y};
}
game::Vec2 to_game(const schema::Vec2* v) {
    return {v->x(), v->y()};
}
schema::Team to_schema(game::Team t) {
    return t == game::Team::left ? schema::Team::left : schema::Team::right;
}
game::Vec2 to_game_or_zero(const schema::Vec2* v) {
    return v ? to_game(v) : game::Vec2{};
}

flatbuffers::Offset<schema::Collision> encode_collision(flatbuffers::FlatBufferBuilder& b,
                                                        const game::Collision& c) {
    return schema::CreateCollision(b, c.group, c.mask);
}
game::Collision decode_collision(const schema::Collision* c, game::Collision fallback) {
    return c ? game::Collision{c->group(), c->mask()} : fallback;
}

// The stadium fields (walls, posts, discs, puck groups): written only when the map
// has them, so a map of boxes and segments encodes to the bytes it always did.
struct StadiumOffsets {
    std::vector<flatbuffers::Offset<schema::Wall>> walls;
    std::vector<flatbuffers::Offset<schema::Post>> posts;
    std::vector<flatbuffers::Offset<schema::Disc>> discs;
    flatbuffers::Offset<schema::Collision> puck_collision;
};

StadiumOffsets encode_stadium(flatbuffers::FlatBufferBuilder& b, const game::Map& map) {
    StadiumOffsets out;
    for (const game::Wall& w : map.walls) {
        const schema::Vec2 a = to_schema(w.a), c = to_schema(w.b), center = to_schema(w.center),
                           normal = to_schema(w.normal);
        const auto collision = encode_collision(b, w.collision);
        out.walls.push_back(schema::CreateWall(b, static_cast<schema::WallShape>(w.shape), &a, &c,
                                               &center, &normal, w.offset, w.bias, w.restitution,
                                               collision, w.color, w.visible));
    }
    for (const game::Post& p : map.posts) {
        const schema::Vec2 position = to_schema(p.position);
        const auto collision = encode_collision(b, p.collision);
        out.posts.push_back(
            schema::CreatePost(b, &position, p.radius, p.restitution, collision, p.color));
    }
    for (const game::Disc& d : map.discs) {
        const schema::Vec2 position = to_schema(d.position), velocity = to_schema(d.velocity);
        const auto collision = encode_collision(b, d.collision);
        out.discs.push_back(schema::CreateDisc(b, &position, &velocity, d.radius, d.mass,
                                               d.restitution, d.drag, collision, d.color));
    }
    if (map.uses_groups()) out.puck_collision = encode_collision(b, map.puck_collision);
    return out;
}

}  // namespace

flatbuffers::Offset<schema::Map> encode_map(flatbuffers::FlatBufferBuilder& b,
                                            const game::Map& map) {
    std::vector<flatbuffers::Offset<schema::Box>> boxes;
    for (const game::Box& box : map.boxes) {
        const schema::Vec2 c = to_schema(box.center), h = to_schema(box.half_extents),
                           a = to_schema(box.axis);
        boxes.push_back(schema::CreateBox(b, &c, &h, &a));
    }
    std::vector<flatbuffers::Offset<schema::Segment>> segments;
    for (const game::Segment& s : map.segments) {
        const schema::Vec2 a = to_schema(s.a), c = to_schema(s.b);
        segments.push_back(schema::CreateSegment(b, &a, &c));
    }
    std::vector<flatbuffers::Offset<schema::Goal>> goals;
    for (const game::Goal& g : map.goals) {
        const schema::Vec2 a = to_schema(g.post_a), c = to_schema(g.post_b);
        goals.push_back(schema::CreateGoal(b, to_schema(g.defender), &a, &c));
    }
    std::vector<flatbuffers::Offset<schema::Spawn>> spawns;
    for (const game::Spawn& s : map.spawns) {
        const schema::Vec2 p = to_schema(s.position);
        spawns.push_back(schema::CreateSpawn(b, to_schema(s.team), &p));
    }
    std::vector<schema::Vec2> pucks;
    for (const game::Vec2& p : map.puck_spawns)
        pucks.push_back(to_schema(p));
    const game::Tuning& t = map.tuning;
    const auto tuning = schema::CreateTuning(
        b, t.player_radius, t.player_mass, t.puck_radius, t.puck_mass, t.player_acceleration,
        t.player_max_speed, t.player_drag, t.puck_drag, t.kick_speed, t.kick_reach,
        t.kick_cooldown_ticks, t.wall_restitution, t.player_restitution, t.puck_restitution,
        t.kicking_acceleration, t.kicking_drag);
    const StadiumOffsets stadium = encode_stadium(b, map);
    return schema::CreateMapDirect(
        b, map.name.c_str(), map.size.x, map.size.y, &boxes, &segments, &goals, &spawns, &pucks,
        map.team_size, map.match_seconds, map.score_limit, tuning,
        stadium.walls.empty() ? nullptr : &stadium.walls,
        stadium.posts.empty() ? nullptr : &stadium.posts, stadium.puck_collision, map.kickoff_nudge,
        stadium.discs.empty() ? nullptr : &stadium.discs, map.kickoff_resets_discs);
}

namespace {

// What the decoder refuses before it allocates anything: enum values outside
// the schema (refused rather than guessed), lists beyond the limits (map.hpp).
Status check_before_decoding(const schema::Map& m) {
    if (m.goals()) {
        for (flatbuffers::uoffset_t i = 0; i < m.goals()->size(); ++i) {
            if (m.goals()->Get(i)->defender() > schema::Team::MAX)
                return fail("goals[" + std::to_string(i) + "].defender: unknown team");
        }
    }
    if (m.spawns()) {
        for (flatbuffers::uoffset_t i = 0; i < m.spawns()->size(); ++i) {
            if (m.spawns()->Get(i)->team() > schema::Team::MAX)
                return fail("spawns[" + std::to_string(i) + "].team: unknown team");
        }
    }
    namespace limits = game::limits;
    const auto too_many = [](const char* field, flatbuffers::uoffset_t n,
                             std::size_t max) -> Status {
        if (n <= max) return {};
        return fail(std::string(field) + ": " + std::to_string(n) + ", at most " +
                    std::to_string(max));
    };
    if (m.name() && m.name()->size() > limits::kNameBytes)
        return fail("name: " + std::to_string(m.name()->size()) + " characters, must be 1 to " +
                    std::to_string(limits::kNameBytes));
    if (auto e = too_many("boxes", m.boxes() ? m.boxes()->size() : 0, limits::kBoxesMax); !e)
        return e.error();
    if (auto e =
            too_many("segments", m.segments() ? m.segments()->size() : 0, limits::kSegmentsMax);
        !e)
        return e.error();
    if (auto e = too_many("goals", m.goals() ? m.goals()->size() : 0, 2); !e) return e.error();
    if (auto e = too_many("spawns", m.spawns() ? m.spawns()->size() : 0, limits::kSpawnsMax); !e)
        return e.error();
    if (m.puck_spawns() && m.puck_spawns()->size() > limits::kPucksMax)
        return fail("puck_spawns: need between 1 and 16 pucks");
    if (auto e = too_many("walls", m.walls() ? m.walls()->size() : 0, limits::kWallsMax); !e)
        return e.error();
    if (auto e = too_many("posts", m.posts() ? m.posts()->size() : 0, limits::kPostsMax); !e)
        return e.error();
    if (auto e = too_many("discs", m.discs() ? m.discs()->size() : 0, limits::kDiscsMax); !e)
        return e.error();
    if (m.walls()) {
        for (flatbuffers::uoffset_t i = 0; i < m.walls()->size(); ++i) {
            if (m.walls()->Get(i)->shape() > schema::WallShape::MAX)
                return fail("walls[" + std::to_string(i) + "].shape: unknown shape");
        }
    }
    return {};
}

// The field, its boxes, segments, goals and spawns, the rules and the tuning.
Status decode_field(const schema::Map& m, game::Map& map) {
    map.name = m.name()->str();
    map.size = {m.width(), m.height()};
    if (m.boxes()) {
        for (const schema::Box* box : *m.boxes()) {
            game::Box g;
            g.center = to_game(box->center());
            g.half_extents = to_game(box->half_extents());
            if (box->axis()) g.axis = to_game(box->axis());
            map.boxes.push_back(g);
        }
    }
    if (m.segments()) {
        for (const schema::Segment* s : *m.segments())
            map.segments.push_back({to_game(s->a()), to_game(s->b())});
    }
    if (m.goals()) {
        for (const schema::Goal* g : *m.goals()) {
            const auto defender =
                g->defender() == schema::Team::right ? game::Team::right : game::Team::left;
            map.goals.push_back({defender, to_game(g->post_a()), to_game(g->post_b())});
        }
    }
    if (m.spawns()) {
        for (const schema::Spawn* s : *m.spawns()) {
            const auto team =
                s->team() == schema::Team::right ? game::Team::right : game::Team::left;
            map.spawns.push_back({team, to_game(s->position())});
        }
    }
    if (m.puck_spawns()) {
        // FlatBuffers 2.0's verifier checks a vector's length field, not the
        // alignment of its elements: a crafted buffer can place these 8-byte
        // structs at 4 mod 8, and reading them would be undefined behaviour.
        const auto data = reinterpret_cast<std::uintptr_t>(m.puck_spawns()->Data());
        if (data % alignof(schema::Vec2) != 0) return fail("puck_spawns: misaligned");
        for (const schema::Vec2* p : *m.puck_spawns())
            map.puck_spawns.push_back(to_game(p));
    }
    map.team_size = m.team_size();
    map.match_seconds = m.match_seconds();
    map.score_limit = m.score_limit();
    if (const schema::Tuning* t = m.tuning()) {
        map.tuning = {t->player_radius(),      t->player_mass(),         t->puck_radius(),
                      t->puck_mass(),          t->player_acceleration(), t->player_max_speed(),
                      t->player_drag(),        t->puck_drag(),           t->kick_speed(),
                      t->kick_reach(),         t->kick_cooldown_ticks(), t->wall_restitution(),
                      t->player_restitution(), t->puck_restitution(),    t->kicking_acceleration(),
                      t->kicking_drag()};
    }
    return {};
}

// The stadium fields (walls, posts, discs, puck groups), and the kick-off's.
void decode_stadium(const schema::Map& m, game::Map& map) {
    if (m.walls()) {
        for (const schema::Wall* w : *m.walls()) {
            game::Wall g;
            g.shape = static_cast<game::Wall::Shape>(w->shape());
            g.a = to_game_or_zero(w->a());
            g.b = to_game_or_zero(w->b());
            g.center = to_game_or_zero(w->center());
            g.normal = to_game_or_zero(w->normal());
            g.offset = w->offset();
            g.bias = w->bias();
            g.restitution = w->restitution();
            g.collision = decode_collision(w->collision(), game::Collision{});
            g.color = w->color();
            g.visible = w->visible();
            map.walls.push_back(g);
        }
    }
    if (m.posts()) {
        for (const schema::Post* p : *m.posts()) {
            map.posts.push_back({to_game(p->position()), p->radius(), p->restitution(),
                                 decode_collision(p->collision(), game::Collision{}), p->color()});
        }
    }
    map.puck_collision = decode_collision(m.puck_collision(), map.puck_collision);
    map.kickoff_nudge = m.kickoff_nudge();
    if (m.discs()) {
        for (const schema::Disc* d : *m.discs()) {
            map.discs.push_back({to_game(d->position()), to_game_or_zero(d->velocity()),
                                 d->radius(), d->mass(), d->restitution(), d->drag(),
                                 decode_collision(d->collision(), game::Disc{}.collision),
                                 d->color()});
        }
    }
    map.kickoff_resets_discs = m.kickoff_resets_discs();
}

// Every check but game::validate's, which the caller makes once.
Result<game::Map> decode_unchecked(const schema::Map& m) {
    if (const Status checked = check_before_decoding(m); !checked) return checked.error();
    game::Map map;
    if (const Status decoded = decode_field(m, map); !decoded) return decoded.error();
    decode_stadium(m, map);
    return map;
}

}  // namespace

Result<game::Map> decode_map(const schema::Map& m) {
    auto map = decode_unchecked(m);
    if (!map) return map;
    if (const Status valid = game::validate(*map); !valid) return valid.error();
    return map;
}

std::vector<std::uint8_t> map_to_binary(const game::Map& map) {
    flatbuffers::FlatBufferBuilder b;
    b.Finish(encode_map(b, map), schema::MapIdentifier());
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

Result<game::Map> map_from_binary(std::span<const std::uint8_t> bytes) {
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (!schema::VerifyMapBuffer(verifier)) return fail("not a valid binary map");
    return decode_map(*schema::GetMap(bytes.data()));
}

Result<game::CheckedMap> checked_map_from_binary(std::span<const std::uint8_t> bytes) {
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (!schema::VerifyMapBuffer(verifier)) return fail("not a valid binary map");
    auto map = decode_unchecked(*schema::GetMap(bytes.data()));
    if (!map) return map.error();
    return game::CheckedMap::check(std::move(*map));
}

std::uint64_t map_hash(const game::Map& map) {
    return map_bytes_hash(map_to_binary(map));
}

}  // namespace carom::protocol
