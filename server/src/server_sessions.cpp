// The Server's sessions: found by id or address, timed out, removed.
#include "server.hpp"

#include <spdlog/spdlog.h>

#include <sodium.h>

#include "carom/game/printable_name.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::server {

const Session* Server::session(std::uint32_t client_id) const {
    const auto it = sessions_.find(client_id);
    return it == sessions_.end() ? nullptr : &it->second;
}

Session* Server::find_by_endpoint(const Endpoint& from) {
    const auto it = by_endpoint_.find(from);
    return it == by_endpoint_.end() ? nullptr : it->second;
}

std::uint32_t Server::new_client_id() const {
    // Random, so an id says nothing about the next one; never 0 (before Accepted).
    for (;;) {
        const std::uint32_t id = randombytes_random();
        if (id != 0 && !sessions_.contains(id)) return id;
    }
}

void Server::send_disconnect(Session& s, net::DisconnectReason reason, const std::string& detail) {
    builder_.Clear();
    const auto body = net::CreateDisconnect(builder_, reason, builder_.CreateString(detail));
    send_sealed(
        s, protocol::finish_packet(builder_, s.client_id, net::Body::Disconnect, body.Union()));
}

void Server::remove_session(std::uint32_t client_id) {
    const auto it = sessions_.find(client_id);
    if (it == sessions_.end()) return;
    Session& s = it->second;
    if (s.map_send && !s.map_send->completed) ++stats_.map_transfers_failed;
    if (s.slot) rooms_[s.room]->unseat_client(*s.slot);
    if (s.connected) by_endpoint_.erase(s.endpoint);
    sessions_.erase(it);
}

void Server::expire_sessions() {
    const auto timeout = static_cast<std::uint64_t>(config_.timeout_s * game::kTickRate);
    const auto grace = static_cast<std::uint64_t>(config_.grace_s * game::kTickRate);
    std::vector<std::uint32_t> gone;
    for (auto& [id, s] : sessions_) {
        if (s.connected && tick_ - s.last_heard_tick > timeout) {
            spdlog::info("client {} ({}) timed out{}", id, game::printable_name(s.name),
                         s.slot ? fmt::format(", slot kept for {} s", config_.grace_s) : "");
            send_disconnect(s, net::DisconnectReason::timeout, "nothing heard");
            if (!s.slot) {
                gone.push_back(id);
                continue;
            }
            by_endpoint_.erase(s.endpoint);
            s.connected = false;
            s.away_since_tick = tick_;
            s.inputs.hold_idle();
        } else if (!s.connected && tick_ - s.away_since_tick > grace) {
            spdlog::info("client {} ({}) did not come back; slot freed", id,
                         game::printable_name(s.name));
            gone.push_back(id);
        }
    }
    for (std::uint32_t id : gone) {
        // A timed-out spectator still has its endpoint entry; an away player does not.
        remove_session(id);
    }
}

}  // namespace carom::server
