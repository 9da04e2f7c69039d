#include "chunk_codec.hpp"

#include <cmath>

#include "carom/protocol/map_codec.hpp"

namespace carom::replay::detail {
namespace {

schema::Vec2 to_schema(game::Vec2 v) {
    return {v.x, v.y};
}
game::Vec2 to_game(const schema::Vec2* v) {
    return {v->x(), v->y()};
}
std::int32_t slot_or_none(const std::optional<game::Slot>& slot) {
    return slot ? static_cast<std::int32_t>(*slot) : -1;
}

}  // namespace

flatbuffers::Offset<schema::Header> encode(flatbuffers::FlatBufferBuilder& b, const Header& h) {
    const auto map = protocol::encode_map(b, h.map);
    std::vector<flatbuffers::Offset<schema::PlayerInfo>> players;
    for (const PlayerInfo& p : h.players)
        players.push_back(schema::CreatePlayerInfoDirect(b, p.slot, p.name.c_str(), p.bot));
    return schema::CreateHeaderDirect(b, h.format_version, h.core_version, h.producer.c_str(), map,
                                      h.tick_rate, h.seed, &players, h.final_pause_ticks);
}

flatbuffers::Offset<schema::Keyframe> encode(flatbuffers::FlatBufferBuilder& b, const Keyframe& k) {
    const game::MatchState& s = k.state;
    std::vector<flatbuffers::Offset<schema::PlayerState>> players;
    for (const game::PlayerSnapshot& p : s.players) {
        const schema::Vec2 pos = to_schema(p.disk.position), vel = to_schema(p.disk.velocity);
        players.push_back(schema::CreatePlayerStateDirect(b, p.active, p.name.c_str(),
                                                          p.last_input.bits(), p.kick_cooldown,
                                                          p.goals, &pos, &vel));
    }
    std::vector<flatbuffers::Offset<schema::PuckState>> pucks;
    for (const game::PuckSnapshot& p : s.pucks) {
        const schema::Vec2 pos = to_schema(p.disk.position), vel = to_schema(p.disk.velocity);
        pucks.push_back(schema::CreatePuckState(b, &pos, &vel, slot_or_none(p.last_kicker)));
    }
    return schema::CreateKeyframeDirect(
        b, s.tick, k.hash, static_cast<schema::Phase>(s.phase), s.phase_ticks, s.score[0],
        s.score[1], s.rng, &players, &pucks, k.world.empty() ? nullptr : &k.world,
        static_cast<std::uint8_t>(s.kickoff_team ? game::index_of(*s.kickoff_team) + 1 : 0));
}

flatbuffers::Offset<schema::Footer> encode(flatbuffers::FlatBufferBuilder& b, const Footer& f) {
    return schema::CreateFooter(b, f.final_tick, f.final_hash, f.score[0], f.score[1],
                                static_cast<schema::Result>(f.result));
}

Status decode(const schema::Header& t, Header& out) {
    out.format_version = t.format_version();
    out.core_version = t.core_version();
    if (out.core_version > kCoreVersion || out.core_version == 0)
        return fail(std::string(out.core_version == 0 ? "core version 0 does not exist"
                                                      : "recorded by a newer carom") +
                    ": core " + std::to_string(out.core_version) + ", this reads 1\u2013" +
                    std::to_string(kCoreVersion));
    out.producer = t.producer() ? t.producer()->str() : std::string{};
    auto map = protocol::decode_map(*t.map());
    if (auto* reason = std::get_if<std::string>(&map)) return fail("header map: " + *reason);
    out.map = std::move(std::get<game::Map>(map));
    out.tick_rate = t.tick_rate();
    if (out.tick_rate != game::kTickRate)
        return fail("header: tick rate " + std::to_string(out.tick_rate) + " Hz, this build runs " +
                    std::to_string(game::kTickRate) + " Hz");
    out.seed = t.seed();
    out.final_pause_ticks = t.final_pause_ticks();
    out.players.clear();
    if (t.players()) {
        for (const schema::PlayerInfo* p : *t.players()) {
            if (p->slot() >= 2 * out.map.team_size)
                return fail("header: player slot " + std::to_string(p->slot()) + " out of range");
            out.players.push_back({p->slot(), p->name() ? p->name()->str() : "", p->bot()});
        }
    }
    return {};
}

Status decode(const schema::Keyframe& t, Keyframe& out) {
    game::MatchState& s = out.state;
    out.hash = t.hash();
    s.tick = t.tick();
    if (t.phase() > schema::Phase::MAX) return fail("keyframe: unknown phase");
    s.phase = static_cast<game::Phase>(t.phase());
    s.phase_ticks = t.phase_ticks();
    s.score = {t.score_left(), t.score_right()};
    s.rng = t.rng();
    if (t.kickoff_team() > 2) return fail("keyframe: unknown kick-off team");
    s.kickoff_team.reset();
    if (t.kickoff_team() != 0)
        s.kickoff_team = t.kickoff_team() == 1 ? game::Team::left : game::Team::right;
    s.players.clear();
    s.pucks.clear();
    if (t.players()) {
        for (const schema::PlayerState* p : *t.players()) {
            if ((p->input() & ~kInputBits) != 0)
                return fail("keyframe: player " + std::to_string(s.players.size()) +
                            ": reserved input bits set (" + std::to_string(p->input()) + ")");
            s.players.push_back({p->active(),
                                 p->name() ? p->name()->str() : "",
                                 game::Input::from_bits(p->input()),
                                 p->kick_cooldown(),
                                 p->goals(),
                                 {to_game(p->position()), to_game(p->velocity())}});
        }
    }
    if (t.pucks()) {
        for (const schema::PuckState* p : *t.pucks()) {
            std::optional<game::Slot> kicker;
            if (p->last_kicker() >= 0) kicker = static_cast<game::Slot>(p->last_kicker());
            s.pucks.push_back({{to_game(p->position()), to_game(p->velocity())}, kicker});
        }
    }
    out.world.clear();
    if (t.world()) out.world.assign(t.world()->begin(), t.world()->end());
    return {};
}

Status decode(const schema::Footer& t, Footer& out) {
    if (t.result() > schema::Result::MAX) return fail("footer: unknown result");
    out = {t.final_tick(),
           t.final_hash(),
           {t.score_left(), t.score_right()},
           static_cast<Result>(t.result())};
    return {};
}

namespace {

// LEB128: 7 bits a byte, least significant first, the top bit set on every
// byte but the last.
void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
}

// Reads a varint at `at` (advanced past it); at most 64 bits.
carom::Result<std::uint64_t> get_varint(const flatbuffers::Vector<std::uint8_t>& in,
                                        flatbuffers::uoffset_t& at) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        if (at >= in.size() || shift > 56) return fail("bad varint");
        const std::uint8_t byte = in[at++];
        v |= std::uint64_t{byte & 0x7Fu} << shift;
        if ((byte & 0x80) == 0) return v;
    }
}

}  // namespace

flatbuffers::Offset<schema::TickBatch> encode(flatbuffers::FlatBufferBuilder& b,
                                              const TickBatch& batch) {
    std::vector<std::uint8_t> inputs;
    std::uint64_t last_tick = batch.first_tick;
    for (const InputChange& c : batch.inputs) {
        put_varint(inputs, (c.tick - last_tick) * kMaxSlots + c.slot);
        inputs.push_back(c.input.bits());
        last_tick = c.tick;
    }
    std::vector<flatbuffers::Offset<schema::RosterChange>> roster;
    for (const RosterChange& r : batch.roster)
        roster.push_back(
            schema::CreateRosterChangeDirect(b, r.tick, r.slot, r.join, r.name.c_str(), r.bot));
    std::vector<flatbuffers::Offset<schema::GameEvent>> events;
    for (const game::MatchEvent& e : batch.events)
        events.push_back(schema::CreateGameEvent(
            b, e.tick, static_cast<schema::EventKind>(e.kind), static_cast<schema::Team>(e.team),
            e.puck, slot_or_none(e.scorer), e.draw, slot_or_none(e.own_goal_by)));
    return schema::CreateTickBatchDirect(b, batch.first_tick, &inputs, &batch.hashes, &roster,
                                         &events);
}

Status decode(const schema::TickBatch& t, std::uint32_t slots, TickBatch& out) {
    out.first_tick = t.first_tick();
    const std::uint64_t count = t.hashes() ? t.hashes()->size() : 0;
    const std::uint64_t end = t.first_tick() + count;  // one past the last tick
    if (t.inputs()) {
        const auto& in = *t.inputs();
        std::uint64_t tick = t.first_tick();
        std::optional<game::Slot> last_slot;  // of the last change at `tick`
        for (flatbuffers::uoffset_t i = 0; i < in.size();) {
            const auto v = get_varint(in, i);
            if (!v) return v.error_in("input stream");
            if (i >= in.size()) return fail("input stream: change without its input byte");
            const auto slot = static_cast<game::Slot>(*v % kMaxSlots);
            if (*v / kMaxSlots != 0) last_slot.reset();
            tick += *v / kMaxSlots;
            // One change per tick and slot, in slot order: this bounds what a file can hold.
            if (last_slot && slot <= *last_slot)
                return fail("input stream: slot " + std::to_string(slot) + " after slot " +
                            std::to_string(*last_slot) + " at tick " + std::to_string(tick) +
                            " (changes go in (tick, slot) order)");
            last_slot = slot;
            if (slot >= slots)
                return fail("input stream: slot " + std::to_string(slot) + " out of range");
            if (tick >= end)
                return fail("input stream: change at tick " + std::to_string(tick) +
                            " is past the batch");
            if ((in[i] & ~kInputBits) != 0)
                return fail("input stream: reserved input bits set (" + std::to_string(in[i]) +
                            ") at tick " + std::to_string(tick) + ", slot " + std::to_string(slot));
            out.inputs.push_back({tick, slot, game::Input::from_bits(in[i++])});
        }
    }
    if (t.roster()) {
        for (const schema::RosterChange* c : *t.roster()) {
            if (c->slot() >= slots)
                return fail("roster: slot " + std::to_string(c->slot()) + " out of range");
            if (c->tick() < t.first_tick() || c->tick() > end)
                return fail("roster: change at tick " + std::to_string(c->tick()) +
                            " outside the batch");
            out.roster.push_back(
                {c->tick(), c->slot(), c->join(), c->name() ? c->name()->str() : "", c->bot()});
        }
    }
    if (t.events()) {
        for (const schema::GameEvent* e : *t.events()) {
            if (e->kind() > schema::EventKind::MAX || e->team() > schema::Team::MAX)
                return fail("event: unknown kind or team");
            const auto slot = [&](std::int32_t s) -> std::optional<game::Slot> {
                if (s < 0) return std::nullopt;
                return static_cast<game::Slot>(s);
            };
            if (e->scorer() >= static_cast<std::int32_t>(slots) ||
                e->own_goal_by() >= static_cast<std::int32_t>(slots))
                return fail("event: slot out of range");
            out.events.push_back({static_cast<game::MatchEvent::Kind>(e->kind()), e->tick(),
                                  static_cast<game::Team>(e->team()), e->puck(), slot(e->scorer()),
                                  e->draw(), slot(e->own_goal_by())});
        }
    }
    if (t.hashes()) out.hashes.assign(t.hashes()->begin(), t.hashes()->end());
    return {};
}

}  // namespace carom::replay::detail
