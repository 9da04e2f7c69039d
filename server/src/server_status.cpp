// The status query: what the server runs, answered before any session under
// the handshake's rules (a padded request, no reply larger than it, the
// per-address reply budget), for carom-client --list and server browsers.
#include "server.hpp"

#include <algorithm>

#include "carom/protocol/map_transfer.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/status.hpp"

namespace carom::server {

void Server::on_status_request(const Endpoint& from, const net::StatusRequest& request,
                               std::size_t size) {
    if (size < protocol::kStatusRequestMinBytes) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::unpadded_request)];
        ++stats_.status_refused;
        return;
    }
    if (!handshake_budget(from)) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::rate_limited)];
        ++stats_.status_refused;
        return;
    }
    protocol::ServerStatus status;
    status.name = config_.name;
    status.version = CAROM_VERSION;
    status.protocol = protocol::kProtocolVersion;
    status.rooms_total = room_count();
    status.first_room = std::min(request.first_room(), room_count());
    status.clients = static_cast<std::uint32_t>(sessions_.size());
    status.max_clients = config_.max_clients;
    // A page holds at most this many rooms (about 150 bytes each in 1200).
    constexpr std::uint32_t kRoomsAPage = 16;
    const std::uint32_t end = std::min(room_count(), status.first_room + kRoomsAPage);
    for (std::uint32_t r = status.first_room; r < end; ++r) {
        const Room& room = *rooms_[r];
        const Scoreboard board = room.scoreboard();
        protocol::RoomInfo info;
        info.room = r;
        info.map_name = room.map().name;
        info.map_hash = room.map_hash();
        info.map_bytes = static_cast<std::uint32_t>(room.map_bytes().size());
        info.players = room.clients();
        info.bots = room.bots();
        info.slots = room.slot_count();
        info.team_size = room.map().team_size;
        info.spectator_slots = config_.max_spectators_per_room;
        info.score_left = board.score[0];
        info.score_right = board.score[1];
        info.seconds_left = static_cast<std::uint32_t>(board.ticks_left / game::kTickRate);
        info.phase = static_cast<schema::Phase>(board.phase);
        status.rooms.push_back(std::move(info));
    }
    for (const auto& [id, s] : sessions_)
        if (!s.slot && s.room >= status.first_room && s.room < end)
            ++status.rooms[s.room - status.first_room].spectators;
    const auto reply = protocol::encode_status(builder_, status, size);
    if (reply.empty()) return;
    ++stats_.status_answered;
    send(from, reply);
}

}  // namespace carom::server
