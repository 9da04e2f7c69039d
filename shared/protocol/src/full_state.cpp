#include "carom/protocol/full_state.hpp"

#include <algorithm>

#include "carom/protocol/packet.hpp"

namespace carom::protocol {
namespace {

net::DiskState disk_of(const game::DiskMotion& d) {
    return {d.position.x, d.position.y, d.velocity.x, d.velocity.y};
}

game::DiskMotion disk_of(const net::DiskState* d) {
    if (d == nullptr) return {};
    return {{d->x(), d->y()}, {d->vx(), d->vy()}};
}

// Part `part` of `parts`: the slots, pucks and discs [count * part / parts, count * (part + 1) /
// parts).
std::pair<std::size_t, std::size_t> share(std::size_t count, std::size_t part, std::size_t parts) {
    return {count * part / parts, count * (part + 1) / parts};
}

std::span<const std::uint8_t> encode_part(flatbuffers::FlatBufferBuilder& b,
                                          std::uint32_t client_id, const RoomState& s,
                                          std::size_t part, std::size_t parts) {
    b.Clear();
    const auto [slot_begin, slot_end] = share(s.match.players.size(), part, parts);
    const auto [puck_begin, puck_end] = share(s.match.pucks.size(), part, parts);
    std::vector<flatbuffers::Offset<net::SlotState>> slots;
    for (std::size_t i = slot_begin; i < slot_end; ++i) {
        const game::PlayerState& p = s.match.players[i];
        const net::DiskState disk = disk_of(p.disk);
        const auto name = p.name.empty() ? 0 : b.CreateString(p.name);
        slots.push_back(net::CreateSlotState(b, static_cast<std::uint16_t>(i), p.active,
                                             i < s.bots.size() && s.bots[i], name,
                                             p.last_input.bits(), p.kick_cooldown, p.goals, &disk));
    }
    std::vector<flatbuffers::Offset<net::DiscState>> discs;
    const auto [disc_begin, disc_end] = share(s.match.discs.size(), part, parts);
    for (std::size_t i = disc_begin; i < disc_end; ++i) {
        const net::DiskState disk = disk_of(s.match.discs[i]);
        discs.push_back(net::CreateDiscState(b, static_cast<std::uint16_t>(i), &disk));
    }
    std::vector<flatbuffers::Offset<net::PuckState>> pucks;
    for (std::size_t i = puck_begin; i < puck_end; ++i) {
        const game::PuckState& p = s.match.pucks[i];
        const net::DiskState disk = disk_of(p.disk);
        pucks.push_back(
            net::CreatePuckState(b, static_cast<std::uint16_t>(i), &disk,
                                 p.last_kicker ? static_cast<std::int32_t>(*p.last_kicker) : -1));
    }
    const auto body = net::CreateFullState(
        b, s.tick, static_cast<std::uint8_t>(part), static_cast<std::uint8_t>(parts), s.state_hash,
        s.last_input_sequence, s.match_seed, s.match_start_tick, s.halted_since, s.match.tick,
        static_cast<schema::Phase>(s.match.phase), s.match.phase_ticks, s.match.score[0],
        s.match.score[1], s.match.rng, b.CreateVector(slots), b.CreateVector(pucks),
        s.server_tick_ms,
        static_cast<std::uint8_t>(s.match.kickoff_team ? game::index_of(*s.match.kickoff_team) + 1
                                                       : 0),
        discs.empty() ? 0 : b.CreateVector(discs));
    return finish_packet(b, client_id, net::Body::FullState, body.Union());
}

}  // namespace

void encode_full_state(flatbuffers::FlatBufferBuilder& b, std::uint32_t client_id,
                       const RoomState& s,
                       const std::function<void(std::span<const std::uint8_t>)>& send) {
    // As few parts as fit: a 4 v 4 takes one; the largest maps (32 slots, 16 pucks) four.
    std::size_t parts = 1;
    for (;; ++parts) {
        bool fits = true;
        for (std::size_t p = 0; p < parts && fits; ++p)
            fits = encode_part(b, client_id, s, p, parts).size() <= kMaxSessionDatagramBytes;
        if (fits || parts == 255) break;
    }
    for (std::size_t p = 0; p < parts; ++p)
        send(encode_part(b, client_id, s, p, parts));
}

namespace {

// The fields every part of a FullState repeats.
RoomState header_of(const net::FullState& f) {
    RoomState s;
    s.tick = f.tick();
    s.state_hash = f.state_hash();
    s.last_input_sequence = f.last_input_sequence();
    s.match_seed = f.match_seed();
    s.match_start_tick = f.match_start_tick();
    s.halted_since = f.halted_since();
    s.server_tick_ms = f.server_tick_ms();
    s.match.tick = f.match_tick();
    s.match.phase = static_cast<game::Phase>(f.phase());
    s.match.phase_ticks = f.phase_ticks();
    s.match.score = {f.score_left(), f.score_right()};
    s.match.rng = f.rng();
    if (f.kickoff_team() != 0)
        s.match.kickoff_team = f.kickoff_team() == 1 ? game::Team::left : game::Team::right;
    return s;
}

// Whether two parts' headers describe one state (the server's tick time aside).
bool same_header(const RoomState& a, const RoomState& b) {
    return a.state_hash == b.state_hash && a.last_input_sequence == b.last_input_sequence &&
           a.match_seed == b.match_seed && a.match_start_tick == b.match_start_tick &&
           a.halted_since == b.halted_since && a.match.tick == b.match.tick &&
           a.match.phase == b.match.phase && a.match.phase_ticks == b.match.phase_ticks &&
           a.match.score == b.match.score && a.match.rng == b.match.rng &&
           a.match.kickoff_team == b.match.kickoff_team;
}

// A part's player slots into `s`, each of the `slots` at most once over the parts.
Status read_slots(const net::FullState& f, std::uint32_t slots, RoomState& s,
                  std::vector<bool>& seen) {
    if (f.slots() == nullptr) return {};
    for (const net::SlotState* p : *f.slots()) {
        if (p->slot() >= slots || seen[p->slot()])
            return fail("full state: slot " + std::to_string(p->slot()) +
                        " out of range or given twice");
        if (p->name() != nullptr && p->name()->size() > kMaxNameBytes)
            return fail("full state: a name longer than " + std::to_string(kMaxNameBytes));
        game::PlayerState& out = s.match.players[p->slot()];
        out.active = p->active();
        out.name = p->name() != nullptr ? p->name()->str() : std::string();
        out.last_input = game::Input::from_bits(p->last_input());
        out.kick_cooldown = p->kick_cooldown();
        out.goals = p->goals();
        out.disk = disk_of(p->disk());
        s.bots[p->slot()] = p->bot();
        seen[p->slot()] = true;
    }
    return {};
}

// A part's pucks into `s`, each of the `pucks` at most once over the parts.
Status read_pucks(const net::FullState& f, std::uint32_t pucks, std::uint32_t slots, RoomState& s,
                  std::vector<bool>& seen) {
    if (f.pucks() == nullptr) return {};
    for (const net::PuckState* p : *f.pucks()) {
        if (p->puck() >= pucks || seen[p->puck()])
            return fail("full state: puck " + std::to_string(p->puck()) +
                        " out of range or given twice");
        if (p->last_kicker() < -1 || p->last_kicker() >= static_cast<std::int32_t>(slots))
            return fail("full state: puck kicker " + std::to_string(p->last_kicker()) +
                        " out of range");
        game::PuckState& out = s.match.pucks[p->puck()];
        out.disk = disk_of(p->disk());
        if (p->last_kicker() >= 0) out.last_kicker = static_cast<game::Slot>(p->last_kicker());
        seen[p->puck()] = true;
    }
    return {};
}

// A part's movable discs into `s`, each of the `discs` at most once over the parts.
Status read_discs(const net::FullState& f, std::uint32_t discs, RoomState& s,
                  std::vector<bool>& seen) {
    if (f.discs() == nullptr) return {};
    for (const net::DiscState* d : *f.discs()) {
        if (d->disc() >= discs || seen[d->disc()])
            return fail("full state: disc " + std::to_string(d->disc()) +
                        " out of range or given twice");
        s.match.discs[d->disc()] = disk_of(d->disk());
        seen[d->disc()] = true;
    }
    return {};
}

bool all_seen(const std::vector<bool>& seen) {
    return std::find(seen.begin(), seen.end(), false) == seen.end();
}

}  // namespace

void FullStateAssembly::clear() {
    building_.reset();
}

Result<std::optional<RoomState>> FullStateAssembly::add(const net::FullState& f,
                                                        std::uint32_t slots, std::uint32_t pucks,
                                                        std::uint32_t discs) {
    if (f.parts() == 0 || f.part() >= f.parts())
        return fail("full state: part " + std::to_string(f.part()) + " of " +
                    std::to_string(f.parts()));
    if (f.phase() > schema::Phase::MAX) return fail("full state: unknown phase");
    if (f.kickoff_team() > 2) return fail("full state: unknown kick-off team");
    RoomState header = header_of(f);
    if (building_ && header.tick > building_->tick) building_.reset();
    if (building_) {
        const RoomState& b = *building_;
        if (header.tick < b.tick) return std::optional<RoomState>{};  // a late part of an older one
        if (f.parts() != parts_ || !same_header(header, b))
            return fail("full state: parts of tick " + std::to_string(b.tick) + " disagree");
        if (part_seen_[f.part()]) return std::optional<RoomState>{};  // a duplicate
    } else {
        building_ = std::move(header);
        building_->match.players.assign(slots, {});
        building_->match.pucks.assign(pucks, {});
        building_->match.discs.assign(discs, {});
        building_->bots.assign(slots, false);
        parts_ = f.parts();
        part_seen_.assign(parts_, false);
        slot_seen_.assign(slots, false);
        puck_seen_.assign(pucks, false);
        disc_seen_.assign(discs, false);
    }
    RoomState& s = *building_;
    if (const Status read = read_slots(f, slots, s, slot_seen_); !read) return read.error();
    if (const Status read = read_pucks(f, pucks, slots, s, puck_seen_); !read) return read.error();
    if (const Status read = read_discs(f, discs, s, disc_seen_); !read) return read.error();
    part_seen_[f.part()] = true;
    if (!all_seen(part_seen_)) return std::optional<RoomState>{};
    if (!all_seen(slot_seen_) || !all_seen(puck_seen_) || !all_seen(disc_seen_)) {
        building_.reset();
        return fail("full state: its parts lack a slot, a puck or a disc");
    }
    std::optional<RoomState> done = std::move(building_);
    building_.reset();
    return done;
}

}  // namespace carom::protocol
