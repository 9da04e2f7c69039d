#include "carom/protocol/status.hpp"

#include <algorithm>

#include "carom/game/printable_name.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::protocol {
namespace {

std::span<const std::uint8_t> build_status(flatbuffers::FlatBufferBuilder& b, const ServerStatus& s,
                                           std::size_t rooms) {
    b.Clear();
    std::vector<flatbuffers::Offset<net::RoomStatus>> entries;
    entries.reserve(rooms);
    for (std::size_t i = 0; i < rooms; ++i) {
        const RoomInfo& r = s.rooms[i];
        const auto map_name = b.CreateString(r.map_name);
        net::RoomStatusBuilder e(b);
        e.add_room(r.room);
        e.add_map_name(map_name);
        e.add_map_hash(r.map_hash);
        e.add_map_bytes(r.map_bytes);
        e.add_players(static_cast<std::uint16_t>(r.players));
        e.add_bots(static_cast<std::uint16_t>(r.bots));
        e.add_slots(static_cast<std::uint16_t>(r.slots));
        e.add_team_size(static_cast<std::uint8_t>(r.team_size));
        e.add_spectators(static_cast<std::uint16_t>(r.spectators));
        e.add_spectator_slots(static_cast<std::uint16_t>(r.spectator_slots));
        e.add_score_left(r.score_left);
        e.add_score_right(r.score_right);
        e.add_seconds_left(r.seconds_left);
        e.add_phase(r.phase);
        entries.push_back(e.Finish());
    }
    const auto body =
        net::CreateStatusDirect(b, s.name.c_str(), s.version.c_str(), s.protocol, s.rooms_total,
                                s.first_room, &entries, s.clients, s.max_clients);
    return finish_packet(b, 0, net::Body::Status, body.Union());
}

}  // namespace

std::span<const std::uint8_t> encode_status_request(flatbuffers::FlatBufferBuilder& b,
                                                    std::uint32_t first_room) {
    // The padding vector's header and alignment make the first guess fall
    // short by a few bytes at most.
    std::size_t padding = 0;
    for (;;) {
        b.Clear();
        const auto pad = b.CreateVector(std::vector<std::uint8_t>(padding, 0));
        const auto body = net::CreateStatusRequest(b, first_room, pad);
        const auto bytes = finish_packet(b, 0, net::Body::StatusRequest, body.Union());
        if (bytes.size() >= kStatusRequestMinBytes) return bytes;
        padding += kStatusRequestMinBytes - bytes.size();
    }
}

std::span<const std::uint8_t> encode_status(flatbuffers::FlatBufferBuilder& b,
                                            const ServerStatus& s, std::size_t max_bytes) {
    // Most rooms first; one fewer each time the page does not fit (a room
    // takes 100 to 200 bytes, so a guess from the first room's size is close).
    std::size_t rooms = s.rooms.size();
    if (rooms > 0) {
        const std::size_t head = build_status(b, s, 0).size();
        const std::size_t one = build_status(b, s, 1).size();
        if (one > head)
            rooms = std::min(rooms, max_bytes > head ? (max_bytes - head) / (one - head) + 1 : 0);
    }
    for (;; --rooms) {
        const auto bytes = build_status(b, s, rooms);
        if (bytes.size() <= max_bytes) return bytes;
        if (rooms == 0) return {};
    }
}

ServerStatus decode_status(const net::Status& st) {
    const auto text = [](const flatbuffers::String* s, std::size_t limit) {
        return s != nullptr ? game::printable_name(s->str(), limit) : std::string();
    };
    ServerStatus s;
    s.name = text(st.name(), 64);
    s.version = text(st.version(), 64);
    s.protocol = st.protocol();
    s.rooms_total = st.rooms_total();
    s.first_room = st.first_room();
    s.clients = st.clients();
    s.max_clients = st.max_clients();
    if (st.rooms() != nullptr) {
        for (const net::RoomStatus* r : *st.rooms()) {
            RoomInfo info;
            info.room = r->room();
            info.map_name = text(r->map_name(), 64);
            info.map_hash = r->map_hash();
            info.map_bytes = r->map_bytes();
            info.players = r->players();
            info.bots = r->bots();
            info.slots = r->slots();
            info.team_size = r->team_size();
            info.spectators = r->spectators();
            info.spectator_slots = r->spectator_slots();
            info.score_left = r->score_left();
            info.score_right = r->score_right();
            info.seconds_left = r->seconds_left();
            info.phase = r->phase();
            s.rooms.push_back(std::move(info));
        }
    }
    return s;
}

}  // namespace carom::protocol
