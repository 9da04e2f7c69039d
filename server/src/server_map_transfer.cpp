// The room's map over the session: a client that lacks the map Accepted
// names asks for chunks of its binary (MapRequest), and the server sends
// them at its pace (config: chunks a tick to a session, and to all), round
// robin over the sessions that wait, so one large map never crowds out the
// updates or another joiner.
#include "server.hpp"

#include <algorithm>

#include "carom/protocol/map_transfer.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::server {
namespace {

// Chunks a session may have waiting: a client's window (128) with room to spare.
constexpr std::size_t kMaxChunksQueued = 256;

}  // namespace

void Server::on_map_request(Session& s, const net::MapRequest& request) {
    const Room& room = *rooms_[s.room];
    if (request.map_hash() != room.map_hash()) return drop_packet(s.endpoint, Drop::wrong_map);
    const std::uint32_t chunks = protocol::chunk_count(room.map_bytes().size());
    if (!s.map_send) {
        s.map_send.emplace();
        s.map_send->queued.assign(chunks, false);
        ++stats_.map_transfers_started;
    }
    MapSend& m = *s.map_send;
    if (m.completed) return;
    if (request.chunks() == nullptr || request.chunks()->size() == 0) {
        // "I hold the map": it can read a FullState now, so the next update
        // is one (once a transfer: it is over).
        map_transfer_done(s);
        s.acked = 0;
        s.full_sent_tick = 0;
        return;
    }
    // Bounded work a datagram: the verifier let through any length.
    const std::size_t n =
        std::min<std::size_t>(request.chunks()->size(), protocol::kMaxChunksPerRequest);
    for (std::size_t i = 0; i < n && m.due.size() < kMaxChunksQueued; ++i) {
        const std::uint32_t index = request.chunks()->Get(static_cast<flatbuffers::uoffset_t>(i));
        if (index >= chunks || m.queued[index]) continue;
        m.queued[index] = true;
        m.due.push_back(index);
    }
}

void Server::map_transfer_done(Session& s) {
    if (!s.map_send || s.map_send->completed) return;
    s.map_send->completed = true;
    s.map_send->due.clear();
    s.map_send->queued = {};
    ++stats_.map_transfers_completed;
}

void Server::send_map_chunks() {
    std::uint32_t budget = config_.map_chunks_per_tick;
    if (budget == 0 || sessions_.empty()) return;
    // Round robin: this tick starts after the session the last one stopped at.
    auto it = sessions_.upper_bound(map_turn_);
    for (std::size_t visited = 0; visited < sessions_.size() && budget > 0; ++visited, ++it) {
        if (it == sessions_.end()) it = sessions_.begin();
        Session& s = it->second;
        if (!s.connected || !s.map_send || s.map_send->due.empty()) continue;
        const std::span<const std::uint8_t> map = rooms_[s.room]->map_bytes();
        const std::uint64_t hash = rooms_[s.room]->map_hash();
        MapSend& m = *s.map_send;
        for (std::uint32_t k = 0;
             k < config_.map_chunks_per_session_tick && budget > 0 && !m.due.empty();
             ++k, --budget) {
            const std::uint32_t index = m.due.front();
            m.due.pop_front();
            m.queued[index] = false;
            const std::size_t at = std::size_t{index} * protocol::kMapChunkBytes;
            const auto data = map.subspan(at, std::min(protocol::kMapChunkBytes, map.size() - at));
            builder_.Clear();
            const auto bytes = builder_.CreateVector(data.data(), data.size());
            const auto body = net::CreateMapChunk(builder_, hash, index, bytes);
            send_sealed(s, protocol::finish_packet(builder_, s.client_id, net::Body::MapChunk,
                                                   body.Union()));
            ++stats_.map_chunks_out;
            stats_.map_bytes_out += data.size();
        }
        map_turn_ = it->first;
    }
}

}  // namespace carom::server
