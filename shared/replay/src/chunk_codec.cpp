#include "chunk_codec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

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
    for (const game::RosterEntry& p : h.players)
        players.push_back(schema::CreatePlayerInfoDirect(b, p.slot, p.name.c_str(), p.bot));
    std::vector<std::uint8_t> parent_hash;
    if (h.parent) parent_hash.assign(h.parent->hash.begin(), h.parent->hash.end());
    return schema::CreateHeaderDirect(b, h.format_version, h.core_version, h.producer.c_str(), map,
                                      h.tick_rate, h.seed, &players, h.final_pause_ticks,
                                      h.start_tick, h.parent ? &parent_hash : nullptr,
                                      h.parent ? h.parent->name.c_str() : nullptr);
}

flatbuffers::Offset<schema::Keyframe> encode(flatbuffers::FlatBufferBuilder& b, const Keyframe& k) {
    const game::MatchState& s = k.state;
    std::vector<flatbuffers::Offset<schema::PlayerState>> players;
    for (const game::PlayerState& p : s.players) {
        const schema::Vec2 pos = to_schema(p.disk.position), vel = to_schema(p.disk.velocity);
        players.push_back(schema::CreatePlayerStateDirect(b, p.active, p.name.c_str(),
                                                          p.last_input.bits(), p.kick_cooldown,
                                                          p.goals, &pos, &vel));
    }
    std::vector<flatbuffers::Offset<schema::PuckState>> pucks;
    for (const game::PuckState& p : s.pucks) {
        const schema::Vec2 pos = to_schema(p.disk.position), vel = to_schema(p.disk.velocity);
        pucks.push_back(schema::CreatePuckState(b, &pos, &vel, slot_or_none(p.last_kicker)));
    }
    std::vector<flatbuffers::Offset<schema::DiscState>> discs;
    for (const game::DiskMotion& d : s.discs) {
        const schema::Vec2 pos = to_schema(d.position), vel = to_schema(d.velocity);
        discs.push_back(schema::CreateDiscState(b, &pos, &vel));
    }
    return schema::CreateKeyframeDirect(
        b, s.tick, k.hash, static_cast<schema::Phase>(s.phase), s.phase_ticks, s.score[0],
        s.score[1], s.rng, &players, &pucks, k.world.empty() ? nullptr : &k.world,
        static_cast<std::uint8_t>(s.kickoff_team ? game::index_of(*s.kickoff_team) + 1 : 0),
        discs.empty() ? nullptr : &discs);
}

flatbuffers::Offset<schema::Footer> encode(flatbuffers::FlatBufferBuilder& b, const Footer& f) {
    return schema::CreateFooter(b, f.final_tick, f.final_hash, f.score[0], f.score[1],
                                static_cast<schema::Outcome>(f.result));
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
    if (!map) return map.error_in("header map");
    out.map = std::move(*map);
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
    out.start_tick = t.start_tick();
    out.parent.reset();
    const bool names_parent = t.parent_hash() != nullptr || t.parent_name() != nullptr;
    if (out.format_version < 3 && (out.start_tick != 0 || names_parent))
        return fail("header: a start tick or a parent in a format " +
                    std::to_string(out.format_version) + " file (format 3 on)");
    if (out.start_tick > kMaxStartTick)
        return fail("header: start tick " + std::to_string(out.start_tick) + " past " +
                    std::to_string(kMaxStartTick));
    if (names_parent) {
        if (!t.parent_hash() || !t.parent_name())
            return fail("header: a parent needs both its hash and its name");
        if (t.parent_hash()->size() != std::tuple_size_v<FileHash>)
            return fail("header: parent hash of " + std::to_string(t.parent_hash()->size()) +
                        " bytes, want " + std::to_string(std::tuple_size_v<FileHash>));
        ParentReplay parent;
        std::copy(t.parent_hash()->begin(), t.parent_hash()->end(), parent.hash.begin());
        parent.name = t.parent_name()->str();
        out.parent = std::move(parent);
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
    s.discs.clear();
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
    if (t.discs()) {
        for (const schema::DiscState* d : *t.discs())
            s.discs.push_back({to_game(d->position()), to_game(d->velocity())});
    }
    out.world.clear();
    if (t.world()) out.world.assign(t.world()->begin(), t.world()->end());
    return {};
}

Status decode(const schema::Footer& t, Footer& out) {
    if (t.result() > schema::Outcome::MAX) return fail("footer: unknown result");
    out = {t.final_tick(),
           t.final_hash(),
           {t.score_left(), t.score_right()},
           static_cast<Outcome>(t.result())};
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
Result<std::uint64_t> get_varint(std::span<const std::uint8_t> in, std::size_t& at) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        if (at >= in.size() || shift > 56) return fail("bad varint");
        const std::uint8_t byte = in[at++];
        v |= std::uint64_t{byte & 0x7Fu} << shift;
        if ((byte & 0x80) == 0) return v;
    }
}

// The input changes of a batch: varint(Δtick * 32 + slot), then the input
// byte, Δtick counting from the previous change (from first_tick for the first).
void put_input_stream(std::vector<std::uint8_t>& out, const TickBatch& batch) {
    std::uint64_t last_tick = batch.first_tick;
    for (const InputChange& c : batch.inputs) {
        put_varint(out, (c.tick - last_tick) * kMaxSlots + c.slot);
        out.push_back(c.input.bits());
        last_tick = c.tick;
    }
}

// Reads the changes of the batch `out` (first_tick set) that ends before
// tick `end`, refusing what the writer never makes.
Status get_input_stream(std::span<const std::uint8_t> in, std::uint32_t slots, std::uint64_t end,
                        TickBatch& out) {
    std::uint64_t tick = out.first_tick;
    std::optional<game::Slot> last_slot;  // of the last change at `tick`
    for (std::size_t i = 0; i < in.size();) {
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
    return {};
}

Status check_roster(const game::RosterChange& c, std::uint32_t slots, std::uint64_t first,
                    std::uint64_t end) {
    if (c.slot >= slots) return fail("roster: slot " + std::to_string(c.slot) + " out of range");
    if (c.tick < first || c.tick > end)
        return fail("roster: change at tick " + std::to_string(c.tick) + " outside the batch");
    return {};
}

// Events as the game has them; a slot field of -1 is none.
Result<game::MatchEvent> event_of(std::uint64_t tick, std::uint64_t kind, std::uint64_t team,
                                  std::uint64_t puck, std::int64_t scorer, bool draw,
                                  std::int64_t own_goal_by, std::uint32_t slots) {
    if (kind > static_cast<std::uint64_t>(schema::EventKind::MAX) ||
        team > static_cast<std::uint64_t>(schema::Team::MAX))
        return fail("event: unknown kind or team");
    if (scorer >= static_cast<std::int64_t>(slots) ||
        own_goal_by >= static_cast<std::int64_t>(slots))
        return fail("event: slot out of range");
    if (puck > std::numeric_limits<std::uint32_t>::max()) return fail("event: puck out of range");
    const auto slot = [](std::int64_t s) -> std::optional<game::Slot> {
        if (s < 0) return std::nullopt;
        return static_cast<game::Slot>(s);
    };
    return game::MatchEvent{static_cast<game::MatchEvent::Kind>(kind),
                            tick,
                            static_cast<game::Team>(team),
                            static_cast<std::uint32_t>(puck),
                            slot(scorer),
                            draw,
                            slot(own_goal_by)};
}

}  // namespace

flatbuffers::Offset<schema::TickBatch> encode(flatbuffers::FlatBufferBuilder& b,
                                              const TickBatch& batch) {
    std::vector<std::uint8_t> inputs;
    put_input_stream(inputs, batch);
    std::vector<flatbuffers::Offset<schema::RosterChange>> roster;
    for (const game::RosterChange& r : batch.roster)
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
        const std::span<const std::uint8_t> stream(t.inputs()->data(), t.inputs()->size());
        if (auto read = get_input_stream(stream, slots, end, out); !read) return read;
    }
    if (t.roster()) {
        for (const schema::RosterChange* c : *t.roster()) {
            game::RosterChange r{c->tick(), c->slot(), c->join(), c->name() ? c->name()->str() : "",
                                 c->bot()};
            if (auto ok = check_roster(r, slots, t.first_tick(), end); !ok) return ok;
            out.roster.push_back(std::move(r));
        }
    }
    if (t.events()) {
        for (const schema::GameEvent* e : *t.events()) {
            auto event = event_of(e->tick(), static_cast<std::uint64_t>(e->kind()),
                                  static_cast<std::uint64_t>(e->team()), e->puck(), e->scorer(),
                                  e->draw(), e->own_goal_by(), slots);
            if (!event) return event.error();
            out.events.push_back(*event);
        }
    }
    if (t.hashes()) out.hashes.assign(t.hashes()->begin(), t.hashes()->end());
    return {};
}

namespace {

// Reads a packed batch front to back; every read is bounds-checked.
class ByteReader {
  public:
    explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    Result<std::uint64_t> varint(const char* what) {
        auto v = get_varint(bytes_, at_);
        if (!v) return fail(std::string(what) + ": bad varint");
        return v;
    }
    Result<std::uint8_t> byte(const char* what) {
        if (at_ >= bytes_.size()) return fail(std::string(what) + ": the batch ends early");
        return bytes_[at_++];
    }
    // `n` bytes (n comes from the file: checked against what is left first).
    Result<std::span<const std::uint8_t>> bytes(std::uint64_t n, const char* what) {
        if (n > bytes_.size() - at_) return fail(std::string(what) + ": the batch ends early");
        const auto out = bytes_.subspan(at_, static_cast<std::size_t>(n));
        at_ += static_cast<std::size_t>(n);
        return out;
    }
    std::size_t left() const { return bytes_.size() - at_; }

  private:
    std::span<const std::uint8_t> bytes_;
    std::size_t at_ = 0;
};

constexpr std::uint8_t kJoinFlag = 1;
constexpr std::uint8_t kBotFlag = 2;

// A slot or none (-1) as varint(slot + 1).
std::uint64_t slot_plus_one(const std::optional<game::Slot>& s) {
    return s ? std::uint64_t{*s} + 1 : 0;
}

}  // namespace

std::vector<std::uint8_t> encode_packed(const TickBatch& batch) {
    std::vector<std::uint8_t> out;
    put_varint(out, batch.first_tick);
    put_varint(out, batch.hashes.size());
    std::vector<std::uint8_t> inputs;
    put_input_stream(inputs, batch);
    put_varint(out, inputs.size());
    out.insert(out.end(), inputs.begin(), inputs.end());
    put_varint(out, batch.roster.size());
    for (const game::RosterChange& r : batch.roster) {
        put_varint(out, r.tick - batch.first_tick);
        put_varint(out, r.slot);
        out.push_back(static_cast<std::uint8_t>((r.join ? kJoinFlag : 0) | (r.bot ? kBotFlag : 0)));
        put_varint(out, r.name.size());
        out.insert(out.end(), r.name.begin(), r.name.end());
    }
    put_varint(out, batch.events.size());
    for (const game::MatchEvent& e : batch.events) {
        put_varint(out, e.tick - batch.first_tick);
        out.push_back(static_cast<std::uint8_t>(e.kind));
        out.push_back(static_cast<std::uint8_t>(e.team));
        put_varint(out, e.puck);
        put_varint(out, slot_plus_one(e.scorer));
        put_varint(out, slot_plus_one(e.own_goal_by));
        out.push_back(e.draw ? 1 : 0);
    }
    // kTickHashBits a tick, packed least significant bit first.
    std::uint32_t bits = 0, filled = 0;
    for (const std::uint64_t hash : batch.hashes) {
        bits |= static_cast<std::uint32_t>(kept_bits(hash, kTickHashBits)) << filled;
        for (filled += kTickHashBits; filled >= 8; filled -= 8, bits >>= 8)
            out.push_back(static_cast<std::uint8_t>(bits));
    }
    if (filled > 0) out.push_back(static_cast<std::uint8_t>(bits));
    return out;
}

Status decode_packed(std::span<const std::uint8_t> bytes, std::uint32_t slots, TickBatch& out,
                     PackedSizes* sizes) {
    ByteReader in(bytes);
    PackedSizes counted;
    std::size_t mark = 0;  // where the part being read started
    const auto part_done = [&](std::uint64_t& part) {
        part = bytes.size() - in.left() - mark;
        mark = bytes.size() - in.left();
    };
    const auto first_tick = in.varint("first tick");
    if (!first_tick) return first_tick.error();
    const auto ticks = in.varint("tick count");
    if (!ticks) return ticks.error();
    // Each tick's hash is at the end: a count beyond the bytes left is damage.
    if (*ticks > in.left() * 8 / kTickHashBits)
        return fail("tick count " + std::to_string(*ticks) + " past the batch");
    const std::uint64_t hash_bytes = (*ticks * kTickHashBits + 7) / 8;
    out.first_tick = *first_tick;
    const std::uint64_t end = *first_tick + *ticks;  // one past the last tick
    mark = bytes.size() - in.left();
    const auto input_bytes = in.varint("input stream");
    if (!input_bytes) return input_bytes.error();
    const auto stream = in.bytes(*input_bytes, "input stream");
    if (!stream) return stream.error();
    if (auto read = get_input_stream(*stream, slots, end, out); !read) return read;
    part_done(counted.inputs);

    const auto roster = in.varint("roster");
    if (!roster) return roster.error();
    for (std::uint64_t i = 0; i < *roster; ++i) {
        const auto offset = in.varint("roster: tick");
        if (!offset) return offset.error();
        const auto slot = in.varint("roster: slot");
        if (!slot) return slot.error();
        const auto flags = in.byte("roster: flags");
        if (!flags) return flags.error();
        const auto length = in.varint("roster: name");
        if (!length) return length.error();
        const auto name = in.bytes(*length, "roster: name");
        if (!name) return name.error();
        if (*offset > *ticks || *slot >= slots || (*flags & ~(kJoinFlag | kBotFlag)) != 0)
            return fail("roster: change " + std::to_string(i) + " out of range");
        game::RosterChange r{*first_tick + *offset, static_cast<game::Slot>(*slot),
                             (*flags & kJoinFlag) != 0, std::string(name->begin(), name->end()),
                             (*flags & kBotFlag) != 0};
        if (auto ok = check_roster(r, slots, *first_tick, end); !ok) return ok;
        out.roster.push_back(std::move(r));
    }
    part_done(counted.roster);

    const auto events = in.varint("events");
    if (!events) return events.error();
    for (std::uint64_t i = 0; i < *events; ++i) {
        const auto offset = in.varint("event: tick");
        if (!offset) return offset.error();
        const auto kind = in.byte("event: kind");
        if (!kind) return kind.error();
        const auto team = in.byte("event: team");
        if (!team) return team.error();
        const auto puck = in.varint("event: puck");
        if (!puck) return puck.error();
        const auto scorer = in.varint("event: scorer");
        if (!scorer) return scorer.error();
        const auto own_goal_by = in.varint("event: own goal");
        if (!own_goal_by) return own_goal_by.error();
        const auto draw = in.byte("event: draw");
        if (!draw) return draw.error();
        if (*offset > *ticks || *scorer > slots || *own_goal_by > slots || *draw > 1)
            return fail("event " + std::to_string(i) + ": out of range");
        auto event = event_of(*first_tick + *offset, *kind, *team, *puck,
                              static_cast<std::int64_t>(*scorer) - 1, *draw != 0,
                              static_cast<std::int64_t>(*own_goal_by) - 1, slots);
        if (!event) return event.error();
        out.events.push_back(*event);
    }
    part_done(counted.events);

    const auto hashes = in.bytes(hash_bytes, "tick hashes");
    if (!hashes) return hashes.error();
    std::uint32_t bits = 0, filled = 0;
    std::size_t next = 0;
    for (std::uint64_t t = 0; t < *ticks; ++t) {
        for (; filled < kTickHashBits; filled += 8)
            bits |= std::uint32_t{(*hashes)[next++]} << filled;
        out.hashes.push_back(bits & ((1u << kTickHashBits) - 1));
        bits >>= kTickHashBits;
        filled -= kTickHashBits;
    }
    if (bits != 0) return fail("tick hashes: padding bits set");
    part_done(counted.hashes);
    if (in.left() != 0) return fail(std::to_string(in.left()) + " byte(s) after the tick hashes");
    if (sizes) *sizes = counted;
    return {};
}

}  // namespace carom::replay::detail
