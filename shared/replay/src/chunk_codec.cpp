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

std::optional<std::string> decode(const schema::Header& t, Header& out) {
    out.format_version = t.format_version();
    out.core_version = t.core_version();
    if (out.core_version > kCoreVersion || out.core_version == 0)
        return std::string(out.core_version == 0 ? "core version 0 does not exist"
                                                 : "recorded by a newer carom") +
               ": core " + std::to_string(out.core_version) + ", this reads 1\u2013" +
               std::to_string(kCoreVersion);
    out.producer = t.producer() ? t.producer()->str() : std::string{};
    auto map = protocol::decode_map(*t.map());
    if (auto* reason = std::get_if<std::string>(&map)) return "header map: " + *reason;
    out.map = std::move(std::get<game::Map>(map));
    out.tick_rate = t.tick_rate();
    if (out.tick_rate != game::kTickRate)
        return "header: tick rate " + std::to_string(out.tick_rate) + " Hz, this build runs " +
               std::to_string(game::kTickRate) + " Hz";
    out.seed = t.seed();
    out.final_pause_ticks = t.final_pause_ticks();
    out.players.clear();
    if (t.players()) {
        for (const schema::PlayerInfo* p : *t.players()) {
            if (p->slot() >= 2 * out.map.team_size)
                return "header: player slot " + std::to_string(p->slot()) + " out of range";
            out.players.push_back({p->slot(), p->name() ? p->name()->str() : "", p->bot()});
        }
    }
    return std::nullopt;
}

std::optional<std::string> decode(const schema::Keyframe& t, Keyframe& out) {
    game::MatchState& s = out.state;
    out.hash = t.hash();
    s.tick = t.tick();
    if (t.phase() > schema::Phase::MAX) return "keyframe: unknown phase";
    s.phase = static_cast<game::Phase>(t.phase());
    s.phase_ticks = t.phase_ticks();
    s.score = {t.score_left(), t.score_right()};
    s.rng = t.rng();
    if (t.kickoff_team() > 2) return "keyframe: unknown kick-off team";
    s.kickoff_team.reset();
    if (t.kickoff_team() != 0)
        s.kickoff_team = t.kickoff_team() == 1 ? game::Team::left : game::Team::right;
    s.players.clear();
    s.pucks.clear();
    if (t.players()) {
        for (const schema::PlayerState* p : *t.players()) {
            if ((p->input() & ~kInputBits) != 0)
                return "keyframe: player " + std::to_string(s.players.size()) +
                       ": reserved input bits set (" + std::to_string(p->input()) + ")";
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
    return std::nullopt;
}

std::optional<std::string> decode(const schema::Footer& t, Footer& out) {
    if (t.result() > schema::Result::MAX) return "footer: unknown result";
    out = {t.final_tick(),
           t.final_hash(),
           {t.score_left(), t.score_right()},
           static_cast<Result>(t.result())};
    return std::nullopt;
}

void append_input_change(std::vector<std::uint8_t>& out, std::uint64_t tick_offset,
                         std::uint32_t slot, std::uint8_t bits) {
    std::uint64_t v = tick_offset * kMaxSlots + slot;
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
    out.push_back(bits);
}

}  // namespace carom::replay::detail
