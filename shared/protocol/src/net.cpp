#include "carom/protocol/net.hpp"

#define XXH_INLINE_ALL  // header-only, as the core uses it: no library to cross-link
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "carom/protocol/map_codec.hpp"
#include "delta_stream.hpp"

namespace carom::protocol {
namespace {

std::int32_t quantise_value(double v, double scale) {
    // Non-finite values never leave the match (it refuses them); clamp anyway
    // so a bug cannot turn into undefined behaviour on the wire.
    if (!std::isfinite(v)) return 0;
    const double q = std::round(v * scale);
    constexpr double lo = std::numeric_limits<std::int32_t>::min();
    constexpr double hi = std::numeric_limits<std::int32_t>::max();
    return static_cast<std::int32_t>(std::clamp(q, lo, hi));
}

}  // namespace

std::string_view to_string(PacketError error) {
    switch (error) {
        case PacketError::too_short:
            return "too short";
        case PacketError::too_long:
            return "too long";
        case PacketError::bad_identifier:
            return "bad identifier";
        case PacketError::malformed:
            return "malformed";
        case PacketError::no_body:
            return "no body";
        case PacketError::wrong_version:
            return "wrong version";
        case PacketError::count_:
            break;
    }
    return "?";
}

std::optional<PacketError> precheck_packet(std::span<const std::uint8_t> bytes) {
    // Root offset and file identifier at least.
    if (bytes.size() < 8) return PacketError::too_short;
    if (bytes.size() > kMaxDatagramBytes) return PacketError::too_long;
    if (!net::PacketBufferHasIdentifier(bytes.data())) return PacketError::bad_identifier;
    return std::nullopt;
}

std::optional<std::uint32_t> peek_protocol(std::span<const std::uint8_t> bytes) {
    const auto read = [&](std::size_t at, std::size_t n) -> std::optional<std::uint32_t> {
        if (at > bytes.size() || n > bytes.size() - at) return std::nullopt;
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < n; ++i)  // little-endian, as FlatBuffers
            v |= static_cast<std::uint32_t>(bytes[at + i]) << (8 * i);
        return v;
    };
    const auto root = read(0, 4);
    if (!root) return std::nullopt;
    const auto soffset = read(*root, 4);
    if (!soffset) return std::nullopt;
    // vtable = table - soffset (signed), computed without overflow.
    const std::int64_t vtable =
        static_cast<std::int64_t>(*root) - static_cast<std::int32_t>(*soffset);
    if (vtable < 0) return std::nullopt;
    const auto vtable_size = read(static_cast<std::size_t>(vtable), 2);
    if (!vtable_size) return std::nullopt;
    if (*vtable_size < 6) return 0U;  // no protocol field: its default
    const auto field = read(static_cast<std::size_t>(vtable) + 4, 2);
    if (!field) return std::nullopt;
    if (*field == 0) return 0U;
    return read(std::size_t{*root} + *field, 4);
}

VerifiedPacket verify_packet(std::span<const std::uint8_t> bytes) {
    if (const auto error = precheck_packet(bytes)) return {nullptr, *error};
    // A datagram holds a handful of tables; anything deeper or wider is hostile.
    flatbuffers::Verifier verifier(bytes.data(), bytes.size(), /*max_depth=*/16,
                                   /*max_tables=*/512);
    if (!net::VerifyPacketBuffer(verifier)) return {nullptr, PacketError::malformed};
    const net::Packet* packet = net::GetPacket(bytes.data());
    if (packet->body_type() == net::Body::NONE || packet->body() == nullptr)
        return {nullptr, PacketError::no_body};
    return {packet, PacketError::count_};
}

std::span<const std::uint8_t> finish_packet(flatbuffers::FlatBufferBuilder& b,
                                            std::uint32_t client_id, net::Body type,
                                            flatbuffers::Offset<void> body, std::uint64_t secret) {
    net::PacketBuilder packet(b);
    if (secret != 0) packet.add_session_secret(secret);
    // The one-byte union type first: it then sits against the body's vtable
    // (2-byte aligned) instead of costing a padded word of its own.
    packet.add_body_type(type);
    packet.add_protocol(kProtocolVersion);
    packet.add_client_id(client_id);
    packet.add_body(body);
    net::FinishPacketBuffer(b, packet.Finish());
    return {b.GetBufferPointer(), b.GetSize()};
}

net::DiskQ quantise(const physics::Vec2& position, const physics::Vec2& velocity) {
    return {quantise_value(position.x, kPositionScale), quantise_value(position.y, kPositionScale),
            quantise_value(velocity.x, kVelocityScale), quantise_value(velocity.y, kVelocityScale)};
}

physics::Vec2 position_of(const net::DiskQ& d) {
    return {d.x() / kPositionScale, d.y() / kPositionScale};
}

physics::Vec2 velocity_of(const net::DiskQ& d) {
    return {d.vx() / kVelocityScale, d.vy() / kVelocityScale};
}

std::string clean_name(std::string_view name) {
    std::string out;
    for (char c : name) {
        if (out.size() == kMaxNameBytes) break;
        if (c >= 0x21 && c <= 0x7E) out.push_back(c);
    }
    return out.empty() ? std::string("player") : out;
}

std::uint64_t map_hash(const game::Map& map) {
    const std::vector<std::uint8_t> bytes = map_to_binary(map);
    return XXH3_64bits(bytes.data(), bytes.size());
}

Frame frame_of(const game::Match& match) {
    Frame f;
    f.tick = match.tick();
    f.phase = match.phase();
    f.score = {match.score(game::Team::left), match.score(game::Team::right)};
    f.ticks_left = match.ticks_left();
    f.disks.reserve(match.puck_count() + match.slot_count());
    for (std::uint32_t p = 0; p < match.puck_count(); ++p) {
        const physics::DiskState& d = match.puck_disk(p);
        f.disks.push_back(quantise(d.position, d.velocity));
    }
    for (game::Slot s = 0; s < match.slot_count(); ++s) {
        const physics::DiskState& d = match.player_disk(s);
        f.disks.push_back(quantise(d.position, d.velocity));
        if (match.active(s)) f.active_mask |= std::uint64_t{1} << s;
    }
    return f;
}

std::span<const std::uint8_t> DeltaStreams::of(const Frame& frame, const Frame& baseline) {
    if (frame.tick != frame_tick_) {
        frame_tick_ = frame.tick;
        used_ = 0;
    }
    for (std::size_t i = 0; i < used_; ++i)
        if (entries_[i].baseline_tick == baseline.tick) return entries_[i].bytes;
    if (used_ == entries_.size()) entries_.emplace_back();
    Entry& e = entries_[used_++];
    e.baseline_tick = baseline.tick;
    detail::encode_delta(frame, baseline, e.bytes);
    return e.bytes;
}

std::span<const std::uint8_t> encode_snapshot(flatbuffers::FlatBufferBuilder& b,
                                              std::uint32_t client_id, const Frame& frame,
                                              const Frame* baseline, const SnapshotExtras& extras,
                                              DeltaStreams* streams) {
    b.Clear();
    // A delta needs the same entities and an earlier, nonzero tick (0 means full).
    if (baseline != nullptr && (baseline->disks.size() != frame.disks.size() ||
                                baseline->tick == 0 || baseline->tick >= frame.tick))
        baseline = nullptr;

    flatbuffers::Offset<flatbuffers::Vector<const net::EntityUpdate*>> updates_offset;
    flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> delta_offset;
    if (baseline == nullptr) {
        std::vector<net::EntityUpdate> updates;
        updates.reserve(frame.disks.size());
        for (std::size_t i = 0; i < frame.disks.size(); ++i)
            updates.emplace_back(static_cast<std::uint16_t>(i), frame.disks[i]);
        updates_offset = b.CreateVectorOfStructs(updates);
    } else {
        if (streams != nullptr) {
            const std::span<const std::uint8_t> stream = streams->of(frame, *baseline);
            delta_offset = b.CreateVector(stream.data(), stream.size());
        } else {
            std::vector<std::uint8_t> stream;
            detail::encode_delta(frame, *baseline, stream);
            delta_offset = b.CreateVector(stream);
        }
    }

    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<net::PlayerInfo>>> roster_offset;
    if (extras.roster != nullptr) {
        std::vector<flatbuffers::Offset<net::PlayerInfo>> players;
        for (const RosterEntry& r : *extras.roster)
            players.push_back(net::CreatePlayerInfo(b, r.slot, r.active, b.CreateString(r.name),
                                                    r.bot, r.goals,
                                                    static_cast<schema::Team>(r.team)));
        roster_offset = b.CreateVector(players);
    }

    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<net::MatchEventNet>>> events_offset;
    if (!extras.events.empty()) {
        std::vector<flatbuffers::Offset<net::MatchEventNet>> events;
        const auto slot_or_none = [](const std::optional<game::Slot>& s) {
            return s ? static_cast<std::int32_t>(*s) : -1;
        };
        for (const game::MatchEvent& e : extras.events)
            events.push_back(net::CreateMatchEventNet(b, static_cast<schema::EventKind>(e.kind),
                                                      e.tick, static_cast<schema::Team>(e.team),
                                                      slot_or_none(e.scorer), e.puck,
                                                      slot_or_none(e.own_goal_by), e.draw));
        events_offset = b.CreateVector(events);
    }

    // Fields added widest first, so that none needs padding before it.
    net::SnapshotBuilder s(b);
    s.add_tick(frame.tick);
    if (baseline == nullptr) {
        s.add_ticks_left(frame.ticks_left);
        s.add_active_mask(frame.active_mask);
        s.add_match_seed(extras.match_seed);
        s.add_match_start_tick(extras.match_start_tick);
    } else {
        s.add_baseline_tick(baseline->tick);
    }
    s.add_last_input_sequence(extras.last_input_sequence);
    s.add_pong_id(extras.pong_id);
    s.add_server_tick_ms(extras.server_tick_ms);
    if (baseline == nullptr) {
        s.add_score_left(frame.score[0]);
        s.add_score_right(frame.score[1]);
        s.add_updates(updates_offset);
    } else {
        s.add_delta(delta_offset);
    }
    if (extras.roster != nullptr) s.add_players(roster_offset);
    if (!extras.events.empty()) s.add_events(events_offset);
    if (baseline == nullptr) {
        s.add_entity_count(static_cast<std::uint16_t>(frame.disks.size()));
        s.add_phase(static_cast<schema::Phase>(frame.phase));
    }
    return finish_packet(b, client_id, net::Body::Snapshot, s.Finish().Union(),
                         extras.session_secret);
}

namespace {

std::optional<Frame> decode_full(const net::Snapshot& s, std::string& error) {
    if (s.delta() != nullptr) {
        error = "full snapshot carries a delta stream";
        return std::nullopt;
    }
    if (s.phase() > schema::Phase::MAX) {
        error = "unknown phase";
        return std::nullopt;
    }
    Frame f;
    f.tick = s.tick();
    f.phase = static_cast<game::Phase>(s.phase());
    f.score = {s.score_left(), s.score_right()};
    f.ticks_left = s.ticks_left();
    f.active_mask = s.active_mask();
    f.disks.assign(s.entity_count(), net::DiskQ{});
    std::vector<bool> seen(f.disks.size(), false);
    if (s.updates() != nullptr) {
        for (const net::EntityUpdate* u : *s.updates()) {
            if (u->entity() >= f.disks.size()) {
                error = "entity out of range: ";
                error += std::to_string(u->entity());
                return std::nullopt;
            }
            f.disks[u->entity()] = u->disk();
            seen[u->entity()] = true;
        }
    }
    if (std::find(seen.begin(), seen.end(), false) != seen.end()) {
        error = "full snapshot lacks an entity";
        return std::nullopt;
    }
    return f;
}

}  // namespace

std::optional<Frame> decode_snapshot(const net::Snapshot& s, const Frame* baseline,
                                     std::string& error) {
    if (s.baseline_tick() == 0) return decode_full(s, error);
    if (baseline == nullptr || baseline->tick != s.baseline_tick()) {
        error = "baseline not held: ";
        error += std::to_string(s.baseline_tick());
        return std::nullopt;
    }
    if (s.tick() <= baseline->tick) {
        error = "delta snapshot not after its baseline";
        return std::nullopt;
    }
    if (s.updates() != nullptr || s.delta() == nullptr) {
        error = "delta snapshot without a delta stream, or with updates";
        return std::nullopt;
    }
    Frame f;
    f.tick = s.tick();
    f.disks = baseline->disks;
    if (!detail::decode_delta({s.delta()->data(), s.delta()->size()}, *baseline, f, error))
        return std::nullopt;
    return f;
}

}  // namespace carom::protocol
