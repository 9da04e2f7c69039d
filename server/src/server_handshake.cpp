// The Server's handshake: ConnectRequest is answered with a Challenge (a
// cookie and the server's public key, no state kept), ConnectResponse with
// Accepted (a session, new or reclaimed, sealed with the keys agreed from the
// client's key) or Denied with the reason. Every reply echoes the request's
// nonce. Replies are rate-limited per source IP.
#include "server.hpp"

#include <spdlog/spdlog.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>

#include "carom/game/printable_name.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::server {
namespace {

// Cookies are good for this long (and one bucket more).
constexpr std::uint64_t kCookieBucketSeconds = 5;
// Source addresses tracked per second for the handshake rate limit; past
// this many, new addresses get no reply until the next second.
constexpr std::size_t kMaxHandshakeAddresses = 4096;
// ConnectResponse keys remembered (for the cookies' lifetime) at most:
// past this many, handshakes wait for the oldest to age out.
constexpr std::size_t kMaxUsedClientKeys = std::size_t{1} << 16;

Endpoint ip_of(const Endpoint& e) {
    Endpoint ip = e;
    ip.port = 0;
    ip.link = 0;  // a browser and a UDP client at one address share its limits
    return ip;
}

std::string str(const flatbuffers::String* s) {
    return s != nullptr ? s->str() : std::string();
}

}  // namespace

bool Server::handshake_budget(const Endpoint& from) {
    if (tick_ >= handshake_window_tick_ + game::kTickRate) {
        handshake_replies_.clear();
        handshake_window_tick_ = tick_;
    }
    const Endpoint ip = ip_of(from);
    auto it = handshake_replies_.find(ip);
    if (it == handshake_replies_.end()) {
        if (handshake_replies_.size() >= kMaxHandshakeAddresses) return false;
        it = handshake_replies_.emplace(ip, 0).first;
    }
    if (it->second >= config_.handshake_replies_per_ip_s) return false;
    ++it->second;
    return true;
}

std::uint64_t Server::cookie_bucket() const {
    return tick_ / (kCookieBucketSeconds * game::kTickRate);
}

void Server::deny_version(const Endpoint& from, std::uint64_t nonce) {
    send_denied(from, net::DenyReason::version_mismatch,
                fmt::format("server speaks protocol {}", protocol::kProtocolVersion), nonce);
}

namespace {

// A cookie is good for two buckets: a response replayed later is refused by it.
constexpr std::uint64_t kKeyKeptTicks = 2 * kCookieBucketSeconds * game::kTickRate;

std::uint64_t id_of(const protocol::Key& key) {
    std::uint64_t id = 0;
    for (std::size_t i = 0; i < 8; ++i)
        id |= std::uint64_t{key[i]} << (8 * i);
    return id;
}

}  // namespace

Server::KeyUse Server::check_client_key(const protocol::Key& key) {
    if (const auto it = used_client_keys_.find(id_of(key)); it != used_client_keys_.end())
        if (tick_ - it->second <= kKeyKeptTicks) return KeyUse::replayed;
    if (used_client_keys_.size() >= kMaxUsedClientKeys)
        std::erase_if(used_client_keys_,
                      [&](const auto& e) { return tick_ - e.second > kKeyKeptTicks; });
    return used_client_keys_.size() >= kMaxUsedClientKeys ? KeyUse::full : KeyUse::fresh;
}

void Server::note_client_key(const protocol::Key& key) {
    used_client_keys_[id_of(key)] = tick_;
}

void Server::on_connect_request(const Endpoint& from, const net::Packet& packet, std::size_t size) {
    // Answering a short request would let a spoofed sender amplify traffic.
    if (size < protocol::kConnectRequestMinBytes) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::unpadded_request)];
        return;
    }
    if (!handshake_budget(from)) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::rate_limited)];
        return;
    }
    const std::uint64_t nonce = packet.body_as_ConnectRequest()->nonce();
    if (packet.protocol() != protocol::kProtocolVersion) return deny_version(from, nonce);
    if (shut_down_) return send_denied(from, net::DenyReason::shutting_down, "", nonce);
    builder_.Clear();
    const auto key =
        builder_.CreateVector(server_keys_.public_key.data(), server_keys_.public_key.size());
    const auto challenge =
        net::CreateChallenge(builder_, cookies_.issue(from, cookie_bucket()), nonce, key);
    send(from, protocol::finish_packet(builder_, 0, net::Body::Challenge, challenge.Union()));
}

void Server::on_connect_response(const Endpoint& from, const net::Packet& packet,
                                 std::size_t size) {
    const net::ConnectResponse& r = *packet.body_as_ConnectResponse();
    // Padded like the request, so that no answer (Denied, Accepted) is larger.
    if (size < protocol::kConnectRequestMinBytes) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::unpadded_request)];
        return;
    }
    // Before the cookie's hash: a flood of responses costs a table lookup each.
    if (!handshake_budget(from)) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::rate_limited)];
        return;
    }
    // Before the cookie: a response of another version is told so, like a request.
    const std::uint64_t nonce = r.nonce();
    if (packet.protocol() != protocol::kProtocolVersion) return deny_version(from, nonce);
    if (!cookies_.check(from, cookie_bucket(), r.cookie()))
        return send_denied(from, net::DenyReason::bad_cookie, "cookie expired or forged", nonce);
    if (shut_down_) return send_denied(from, net::DenyReason::shutting_down, "", nonce);

    protocol::Key client_key{};
    if (r.client_key() == nullptr || r.client_key()->size() != client_key.size() ||
        r.sealed() == nullptr) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::bad_hello)];
        return;
    }
    std::copy(r.client_key()->begin(), r.client_key()->end(), client_key.begin());
    // A token server opens the token first: its keys are in the session's.
    std::optional<protocol::OpenedToken> token;
    if (config_.token_key) {
        token = admit_token(from, r);
        if (!token) return;
    } else if (r.connect_token() != nullptr && r.connect_token()->size() > 0) {
        // Its hello is sealed with the token's keys mixed in, which only a
        // token server can read: say so rather than let the client time out.
        return send_denied(from, net::DenyReason::token_invalid,
                           "this server takes no connect tokens", nonce);
    }
    // A repeated response (our Accepted was lost): answer the same.
    Session* existing = find_by_endpoint(from);
    // (Within the cookie's life, anyone who saw it can send it again: it
    // keeps nothing alive, and the Accepted opens only with the client's key.)
    if (existing != nullptr && existing->client_key == client_key) return send_accepted(*existing);
    switch (check_client_key(client_key)) {
        case KeyUse::fresh:
            break;
        case KeyUse::replayed:
            ++stats_.dropped[static_cast<std::size_t>(Drop::replayed_handshake)];
            return;
        case KeyUse::full:
            ++stats_.dropped[static_cast<std::size_t>(Drop::rate_limited)];
            return;
    }
    // The session's keys (with a token, its keys mixed in: a party in the
    // middle of the exchange lacks them), and the hello only the client
    // could seal with them.
    auto keys = protocol::server_session_keys(server_keys_, client_key);
    if (keys && token)
        keys = protocol::mix_token_keys(*keys, token->client_to_server, token->server_to_client,
                                        false);
    std::optional<protocol::SessionSeal> seal;
    std::optional<std::vector<std::uint8_t>> hello;
    if (keys) {
        seal.emplace(*keys);
        hello = seal->open_hello({r.sealed()->data(), r.sealed()->size()});
    }
    if (!hello || hello->size() != protocol::kHelloBytes) {
        ++stats_.dropped[static_cast<std::size_t>(Drop::bad_hello)];
        return;
    }
    std::uint64_t reclaim = 0;
    for (std::size_t i = 0; i < 8; ++i)
        reclaim |= std::uint64_t{(*hello)[i]} << (8 * i);
    if (token && !token_unused(from, r, *token, client_key, existing, reclaim)) return;
    if (existing != nullptr) {
        // The client at this address began again (new keys): its session goes on with them.
        existing->seal = std::move(seal);
        existing->client_key = client_key;
        existing->last_heard_tick = tick_;
        existing->acked = 0;
        existing->full_sent_tick = 0;
        note_client_key(client_key);
        if (token) note_token(*token, *existing);
        return send_accepted(*existing);
    }
    // On a token server the name is the token's: the backend vouches for it.
    const std::string name = token ? token->grant.name : protocol::clean_name(str(r.name()));
    if (std::find(config_.banned_names.begin(), config_.banned_names.end(), name) !=
        config_.banned_names.end())
        return send_denied(from, net::DenyReason::banned_name, name, nonce);
    const std::optional<std::uint64_t> player_id =
        token ? std::optional(token->grant.player_id) : std::nullopt;
    if (!reclaim_session(from, reclaim, player_id, *seal, client_key))
        open_session(from, r, name, player_id, reclaim, *seal, client_key);
    // Accepted (not denied): the token is spent on this client.
    if (const Session* s = find_by_endpoint(from);
        token && s != nullptr && s->client_key == client_key)
        note_token(*token, *s);
}

std::uint64_t Server::unix_now_s() const {
    if (config_.unix_time_s) return config_.unix_time_s();
    return static_cast<std::uint64_t>(std::chrono::floor<std::chrono::seconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

std::optional<protocol::OpenedToken> Server::admit_token(const Endpoint& from,
                                                         const net::ConnectResponse& r) {
    const std::uint64_t nonce = r.nonce();
    if (r.connect_token() == nullptr || r.connect_token()->size() == 0) {
        send_denied(from, net::DenyReason::token_required, "", nonce);
        return std::nullopt;
    }
    const std::uint64_t now = unix_now_s();
    protocol::TokenOpening opened = protocol::open_connect_token(
        *config_.token_key, {r.connect_token()->data(), r.connect_token()->size()}, now);
    if (!opened.token) {
        if (opened.refused == protocol::TokenRefusal::expired)
            send_denied(from, net::DenyReason::token_expired, "", nonce);
        else
            send_denied(from, net::DenyReason::token_invalid, "", nonce);
        return std::nullopt;
    }
    const protocol::OpenedToken& t = *opened.token;
    const bool ours =
        std::any_of(t.grant.servers.begin(), t.grant.servers.end(), [&](const auto& a) {
            return std::find(config_.token_servers.begin(), config_.token_servers.end(), a) !=
                   config_.token_servers.end();
        });
    if (!ours) {
        send_denied(from, net::DenyReason::token_wrong_server,
                    fmt::format("the token is for {}", fmt::join(t.grant.servers, ", ")), nonce);
        return std::nullopt;
    }
    if (std::find(config_.banned_ids.begin(), config_.banned_ids.end(), t.grant.player_id) !=
        config_.banned_ids.end()) {
        send_denied(from, net::DenyReason::banned_id, fmt::format("player {}", t.grant.player_id),
                    nonce);
        return std::nullopt;
    }
    return std::move(opened.token);
}

bool Server::token_unused(const Endpoint& from, const net::ConnectResponse& r,
                          const protocol::OpenedToken& token, const protocol::Key& client_key,
                          const Session* existing, std::uint64_t reclaim) {
    const auto it = used_tokens_.find(token.id);
    if (it == used_tokens_.end() || it->second.client_key == client_key) return true;
    // Its own session, begun again at its address or taken back by its reclaim token.
    const Session* owner = session(it->second.client_id);
    if (owner != nullptr && (owner == existing || (reclaim != 0 && owner->token == reclaim)))
        return true;
    send_denied(from, net::DenyReason::token_reused, "", r.nonce());
    return false;
}

void Server::note_token(const protocol::OpenedToken& token, const Session& session) {
    // Kept until it expires (and the skew allowed): then it is refused as expired.
    if (used_tokens_.size() >= 4096) {
        const std::uint64_t now = unix_now_s();
        std::erase_if(used_tokens_, [&](const auto& e) {
            return e.second.expires_unix_s + protocol::kTokenClockSkewS < now;
        });
    }
    used_tokens_[token.id] =
        UsedToken{session.client_key, session.client_id, token.header.expires_unix_s};
}

bool Server::reclaim_session(const Endpoint& from, std::uint64_t token,
                             std::optional<std::uint64_t> player_id, protocol::SessionSeal& seal,
                             const protocol::Key& client_key) {
    // The same token within the grace window reclaims its session and slot
    // (on a token server, the same player's).
    for (auto& [id, s] : sessions_) {
        if (s.token != token || token == 0 || s.player_id != player_id) continue;
        // An away session's old address is no longer its own (another client
        // may hold it now); a connected one is told it has been taken over.
        if (s.connected) {
            send_disconnect(s, net::DisconnectReason::kicked, "the session was taken over");
            by_endpoint_.erase(s.endpoint);
        }
        s.endpoint = from;
        by_endpoint_[from] = &s;
        // The old holder's keys no longer open anything.
        s.seal = std::move(seal);
        s.client_key = client_key;
        note_client_key(client_key);
        s.connected = true;
        s.last_heard_tick = tick_;
        s.acked = 0;
        s.full_sent_tick = 0;
        s.map_send.reset();  // the new holder may lack the map: it may ask again
        spdlog::info("client {} ({}) reconnected from {}", id, game::printable_name(s.name),
                     from.to_string());
        send_accepted(s);
        return true;
    }
    return false;
}

void Server::open_session(const Endpoint& from, const net::ConnectResponse& r,
                          const std::string& name, std::optional<std::uint64_t> player_id,
                          std::uint64_t token, protocol::SessionSeal& seal,
                          const protocol::Key& client_key) {
    const std::uint64_t nonce = r.nonce();
    if (sessions_.size() >= config_.max_clients)
        return send_denied(from, net::DenyReason::server_full,
                           fmt::format("{} clients", config_.max_clients), nonce);
    const Endpoint ip = ip_of(from);
    const auto from_ip = std::count_if(sessions_.begin(), sessions_.end(), [&](const auto& e) {
        return ip_of(e.second.endpoint) == ip;
    });
    if (static_cast<std::uint64_t>(from_ip) >= config_.max_sessions_per_ip)
        return send_denied(from, net::DenyReason::too_many_from_address,
                           fmt::format("{} per address", config_.max_sessions_per_ip), nonce);
    if (r.room() >= static_cast<std::int32_t>(rooms_.size()))
        return send_denied(from, net::DenyReason::no_such_room,
                           fmt::format("rooms are 0..{}", rooms_.size() - 1), nonce);

    Session s;
    s.token = token;
    s.seal = std::move(seal);
    s.client_key = client_key;
    s.endpoint = from;
    s.name = name;
    s.player_id = player_id;
    s.last_heard_tick = tick_;
    if (!place_session(from, r, s)) return;
    s.client_id = new_client_id();
    s.spread = next_spread_++;
    s.applied.resize(config_.update_history + 1);
    if (s.slot) rooms_[s.room]->seat_client(*s.slot, s.client_id, s.name);
    spdlog::info(
        "client {} ({}{}) from {} joined room {} {}", s.client_id, game::printable_name(s.name),
        s.player_id ? fmt::format(", player {}", *s.player_id) : std::string(), from.to_string(),
        s.room, s.slot ? fmt::format("in slot {}", *s.slot) : std::string("as a spectator"));
    note_client_key(client_key);
    const auto [it, inserted] = sessions_.emplace(s.client_id, std::move(s));
    by_endpoint_[from] = &it->second;
    send_accepted(it->second);
}

bool Server::place_session(const Endpoint& from, const net::ConnectResponse& r, Session& s) {
    if (r.spectator()) {
        s.room = r.room() < 0 ? 0 : static_cast<std::uint32_t>(r.room());
        const auto watching = std::count_if(sessions_.begin(), sessions_.end(), [&](const auto& e) {
            return e.second.room == s.room && !e.second.slot;
        });
        if (static_cast<std::uint32_t>(watching) >= config_.max_spectators_per_room) {
            send_denied(from, net::DenyReason::room_full, "no spectator places", r.nonce());
            return false;
        }
        wake_room(s.room);
        return true;
    }
    std::optional<game::Slot> slot;
    if (r.room() >= 0) {
        s.room = static_cast<std::uint32_t>(r.room());
        wake_room(s.room);
        slot = rooms_[s.room]->slot_for_client();
        if (!slot) {
            send_denied(from, net::DenyReason::room_full, fmt::format("room {}", s.room),
                        r.nonce());
            return false;
        }
    } else {
        // A sleeping room holds no client, so it has a slot for one.
        for (const auto& room : rooms_) {
            if (room->asleep() || room->slot_for_client()) {
                s.room = room->index();
                wake_room(s.room);
                slot = room->slot_for_client();
                break;
            }
        }
        if (!slot) {
            send_denied(from, net::DenyReason::room_full, "every room", r.nonce());
            return false;
        }
    }
    s.slot = slot;
    return true;
}

void Server::send_denied(const Endpoint& to, net::DenyReason reason, const std::string& detail,
                         std::uint64_t nonce) {
    // The operator's answer to "why can't they join": at info, one line per address per window.
    if (spdlog::should_log(spdlog::level::info)) {
        if (const auto suppressed = refusals_.admit(to.address, tick_)) {
            std::string line =
                fmt::format("refused {}: {}", to.to_string(), net::EnumNameDenyReason(reason));
            if (!detail.empty()) line += " (" + detail + ")";
            if (*suppressed > 0)
                line += fmt::format(", {} more from this address not logged", *suppressed);
            spdlog::info("{}", line);
        }
    }
    ++stats_.denied[static_cast<std::size_t>(reason)];
    builder_.Clear();
    const auto body = net::CreateDenied(builder_, reason, builder_.CreateString(detail), nonce);
    send(to, protocol::finish_packet(builder_, 0, net::Body::Denied, body.Union()));
}

void Server::send_accepted(Session& s) {
    const Room& room = *rooms_[s.room];
    builder_.Clear();
    const auto map_name = builder_.CreateString(room.map().name);
    net::AcceptedBuilder a(builder_);
    a.add_client_id(s.client_id);
    a.add_room(s.room);
    a.add_slot(s.slot ? static_cast<std::int32_t>(*s.slot) : -1);
    a.add_team(s.slot ? game::index_of(room.match().team_of(*s.slot)) : 0);
    a.add_tick_rate_hz(game::kTickRate);
    a.add_update_rate_hz(config_.update_rate_hz);
    a.add_map_name(map_name);
    a.add_map_hash(room.map_hash());
    a.add_seed(room.seed());
    a.add_input_redundancy(config_.input_redundancy);
    a.add_slots(static_cast<std::uint16_t>(room.slot_count()));
    a.add_team_size(static_cast<std::uint8_t>(room.map().team_size));
    a.add_map_bytes(static_cast<std::uint32_t>(room.map_bytes().size()));
    send_sealed(
        s, protocol::finish_packet(builder_, s.client_id, net::Body::Accepted, a.Finish().Union()));
}

}  // namespace carom::server
