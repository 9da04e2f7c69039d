#include "server.hpp"

#include <spdlog/spdlog.h>

#include <sodium.h>

#include <algorithm>
#include <stdexcept>

#include "carom/game/printable_name.hpp"
#include "carom/protocol/map_file.hpp"

namespace carom::server {
namespace {

// Cookies are good for this long (and one bucket more).
constexpr std::uint64_t kCookieBucketSeconds = 5;
// Source addresses tracked per second for the handshake rate limit; past
// this many, new addresses get no reply until the next second.
constexpr std::size_t kMaxHandshakeAddresses = 4096;
// Events resent to a client until acknowledged: far more than a match makes
// within the session timeout, and a bound for a client that never acks.
constexpr std::size_t kMaxPendingEvents = 64;

std::uint64_t random_secret() {
    std::uint64_t s = 0;
    while (s == 0)
        randombytes_buf(&s, sizeof s);
    return s;
}

Endpoint ip_of(const Endpoint& e) {
    Endpoint ip = e;
    ip.port = 0;
    return ip;
}

game::Map load_map(const std::filesystem::path& path) {
    auto loaded = protocol::load_map_file(path);
    if (!loaded) throw std::invalid_argument(loaded.error().message);
    return std::move(*loaded);
}

std::string str(const flatbuffers::String* s) {
    return s != nullptr ? s->str() : std::string();
}

}  // namespace

Server::Server(const ServerConfig& config, Transport& transport, CookieJar cookies,
               std::string run_id)
    : config_(config), transport_(transport), cookies_(cookies) {
    if (config_.maps.empty()) throw std::invalid_argument("no map given");
    if (config_.rooms == 0) throw std::invalid_argument("--rooms must be at least 1");
    if (config_.snapshot_rate_hz == 0 || config_.snapshot_rate_hz > config_.tick_rate_hz ||
        config_.tick_rate_hz % config_.snapshot_rate_hz != 0)
        throw std::invalid_argument(
            fmt::format("--snapshot-rate must divide the tick rate ({} Hz)", config_.tick_rate_hz));
    if (!(config_.final_pause_s >= 0.0 && config_.final_pause_s <= 600.0))
        throw std::invalid_argument("--final-pause must be 0..600 seconds");
    if (config_.input_redundancy == 0 || config_.input_redundancy > 64)
        throw std::invalid_argument("--input-redundancy must be 1..64");
    if (config_.max_sessions_per_ip == 0)
        throw std::invalid_argument("--max-sessions-per-ip must be at least 1");
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    if (!config_.replay_dir.empty()) std::filesystem::create_directories(config_.replay_dir);

    std::vector<game::Map> maps;
    for (const auto& path : config_.maps)
        maps.push_back(load_map(path));
    for (std::uint32_t r = 0; r < config_.rooms; ++r) {
        RoomOptions o;
        o.index = r;
        o.map = maps[r % maps.size()];
        o.bots = config_.bots;
        o.replay_dir = config_.replay_dir;
        o.run_id = run_id;
        o.seed = config_.seed;
        o.frame_history = config_.snapshot_history;
        o.final_pause_ticks =
            static_cast<std::uint32_t>(config_.final_pause_s * config_.tick_rate_hz);
        o.stats = &stats_;
        o.step_fault = config_.room_step_fault;
        rooms_.push_back(std::make_unique<Room>(std::move(o)));
    }
    delta_streams_.resize(rooms_.size());
}

Server::~Server() = default;

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

bool Server::handshake_budget(const Endpoint& from) {
    if (tick_ >= handshake_window_tick_ + config_.tick_rate_hz) {
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
    return tick_ / (kCookieBucketSeconds * config_.tick_rate_hz);
}

void Server::send(const Endpoint& to, std::span<const std::uint8_t> bytes) {
    ++stats_.packets_out;
    stats_.bytes_out += bytes.size();
    transport_.send(to, bytes);
}

void Server::receive(const Endpoint& from, std::span<const std::uint8_t> datagram) {
    ++stats_.packets_in;
    stats_.bytes_in += datagram.size();
    // The cheap refusals first (size, identifier, version), before the
    // verifier or any hash: a flood of junk costs a few compares a datagram.
    protocol::VerifiedPacket verified;
    if (const auto error = protocol::precheck_packet(datagram)) {
        verified.error = *error;
    } else if (const auto version = protocol::peek_protocol(datagram); !version) {
        verified.error = protocol::PacketError::malformed;
    } else if (*version != protocol::kProtocolVersion &&
               datagram.size() < protocol::kConnectRequestMinBytes) {
        // Another version is only answered (Denied version_mismatch) for a
        // padded ConnectRequest: anything shorter is refused here.
        verified.error = protocol::PacketError::wrong_version;
    } else {
        verified = protocol::verify_packet(datagram);
    }
    if (verified.packet == nullptr) {
        ++stats_.invalid[static_cast<std::size_t>(verified.error)];
        // Formatting the address costs an allocation: only when it is logged.
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("dropped {} bytes from {}: {}", datagram.size(), from.to_string(),
                          protocol::to_string(verified.error));
        return;
    }
    const net::Packet& packet = *verified.packet;
    const auto drop = [&](Drop why) {
        ++stats_.dropped[static_cast<std::size_t>(why)];
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("dropped a packet from {}: {}", from.to_string(), to_string(why));
    };

    switch (packet.body_type()) {
        case net::Body::ConnectRequest:
            on_connect_request(from, packet, datagram.size());
            return;
        case net::Body::ConnectResponse:
            on_connect_response(from, *packet.body_as_ConnectResponse(), datagram.size());
            return;
        case net::Body::ClientInput:
        case net::Body::KeepAlive:
        case net::Body::Disconnect:
            break;
        default:
            drop(Drop::unexpected_type);
            return;
    }

    Session* session = find_by_endpoint(from);
    if (session == nullptr) return drop(Drop::unknown_sender);
    if (packet.client_id() != session->client_id) return drop(Drop::wrong_client_id);
    // The address can be forged; the secret from Accepted cannot be guessed.
    if (packet.session_secret() != session->secret) return drop(Drop::wrong_secret);
    session->last_heard_tick = tick_;
    if (const auto* input = packet.body_as_ClientInput()) {
        on_input(*session, *input);
    } else if (const auto* keep = packet.body_as_KeepAlive()) {
        session->last_ping_id = keep->ping_id();
    } else if (packet.body_as_Disconnect() != nullptr) {
        spdlog::info("client {} ({}) left", session->client_id,
                     game::printable_name(session->name));
        remove_session(session->client_id);
    }
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
    if (packet.protocol() != protocol::kProtocolVersion)
        return send_denied(from, net::DenyReason::version_mismatch,
                           fmt::format("server speaks protocol {}", protocol::kProtocolVersion));
    if (shut_down_) return send_denied(from, net::DenyReason::shutting_down, "");
    builder_.Clear();
    const auto challenge = net::CreateChallenge(builder_, cookies_.issue(from, cookie_bucket()));
    send(from, protocol::finish_packet(builder_, 0, net::Body::Challenge, challenge.Union()));
}

void Server::on_connect_response(const Endpoint& from, const net::ConnectResponse& r,
                                 std::size_t size) {
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
    if (!cookies_.check(from, cookie_bucket(), r.cookie()))
        return send_denied(from, net::DenyReason::bad_cookie, "cookie expired or forged");
    if (shut_down_) return send_denied(from, net::DenyReason::shutting_down, "");

    // A repeated response (our Accepted was lost): answer the same.
    if (Session* existing = find_by_endpoint(from)) {
        existing->last_heard_tick = tick_;
        return send_accepted(*existing);
    }
    const std::string name = protocol::clean_name(str(r.name()));
    if (std::find(config_.banned_names.begin(), config_.banned_names.end(), name) !=
        config_.banned_names.end())
        return send_denied(from, net::DenyReason::banned_name, name);

    // The same token within the grace window reclaims its session and slot.
    for (auto& [id, s] : sessions_) {
        if (s.token != r.token() || r.token() == 0) continue;
        // An away session's old address is no longer its own (another client
        // may hold it now); a connected one is told it has been taken over.
        if (s.connected) {
            send_disconnect(s, net::DisconnectReason::kicked, "the session was taken over");
            by_endpoint_.erase(s.endpoint);
        }
        s.endpoint = from;
        by_endpoint_[from] = &s;
        s.secret = random_secret();  // the old holder's secret no longer works
        s.connected = true;
        s.last_heard_tick = tick_;
        s.acked_snapshot = 0;
        s.roster_acked_version = 0;
        spdlog::info("client {} ({}) reconnected from {}", id, game::printable_name(s.name),
                     from.to_string());
        return send_accepted(s);
    }

    if (sessions_.size() >= config_.max_clients)
        return send_denied(from, net::DenyReason::server_full,
                           fmt::format("{} clients", config_.max_clients));
    const Endpoint ip = ip_of(from);
    const auto from_ip = std::count_if(sessions_.begin(), sessions_.end(), [&](const auto& e) {
        return ip_of(e.second.endpoint) == ip;
    });
    if (static_cast<std::uint64_t>(from_ip) >= config_.max_sessions_per_ip)
        return send_denied(from, net::DenyReason::too_many_from_address,
                           fmt::format("{} per address", config_.max_sessions_per_ip));
    if (r.room() >= static_cast<std::int32_t>(rooms_.size()))
        return send_denied(from, net::DenyReason::no_such_room,
                           fmt::format("rooms are 0..{}", rooms_.size() - 1));

    Session s;
    s.token = r.token();
    s.endpoint = from;
    s.name = name;
    s.last_heard_tick = tick_;
    if (r.spectator()) {
        s.room = r.room() < 0 ? 0 : static_cast<std::uint32_t>(r.room());
        const auto watching = std::count_if(sessions_.begin(), sessions_.end(), [&](const auto& e) {
            return e.second.room == s.room && !e.second.slot;
        });
        if (static_cast<std::uint32_t>(watching) >= config_.max_spectators_per_room)
            return send_denied(from, net::DenyReason::room_full, "no spectator places");
    } else {
        std::optional<game::Slot> slot;
        if (r.room() >= 0) {
            s.room = static_cast<std::uint32_t>(r.room());
            slot = rooms_[s.room]->slot_for_client();
            if (!slot)
                return send_denied(from, net::DenyReason::room_full,
                                   fmt::format("room {}", s.room));
        } else {
            for (const auto& room : rooms_) {
                if ((slot = room->slot_for_client())) {
                    s.room = room->index();
                    break;
                }
            }
            if (!slot) return send_denied(from, net::DenyReason::room_full, "every room");
        }
        s.slot = slot;
    }
    s.client_id = new_client_id();
    s.secret = random_secret();
    s.spread = next_spread_++;
    if (s.slot) rooms_[s.room]->seat_client(*s.slot, s.client_id, s.name);
    spdlog::info("client {} ({}) from {} joined room {} {}", s.client_id,
                 game::printable_name(s.name), from.to_string(), s.room,
                 s.slot ? fmt::format("in slot {}", *s.slot) : std::string("as a spectator"));
    const auto [it, inserted] = sessions_.emplace(s.client_id, std::move(s));
    by_endpoint_[from] = &it->second;
    send_accepted(it->second);
}

void Server::on_input(Session& session, const net::ClientInput& input) {
    session.last_ping_id = input.ping_id();
    if (input.ack_snapshot() > session.acked_snapshot && input.ack_snapshot() <= tick_) {
        session.acked_snapshot = input.ack_snapshot();
        if (session.roster_sent_version > session.roster_acked_version &&
            session.acked_snapshot >= session.roster_sent_tick)
            session.roster_acked_version = session.roster_sent_version;
        // That snapshot carried every pending event of its tick and before.
        std::erase_if(session.pending_events,
                      [&](const game::MatchEvent& e) { return e.tick <= session.acked_snapshot; });
    }
    if (!session.slot || input.inputs() == nullptr) return;
    const auto* commands = input.inputs();
    for (flatbuffers::uoffset_t i = 0; i < commands->size(); ++i) {
        const net::InputCommand* c = commands->Get(i);
        switch (session.inputs.offer(c->sequence(), c->bits())) {
            case InputQueue::Offer::queued:
                // Not the packet's newest: its own packet was lost or overtaken.
                if (i + 1 < commands->size()) ++stats_.inputs_recovered;
                break;
            case InputQueue::Offer::duplicate:
                ++stats_.inputs_duplicate;
                break;
            case InputQueue::Offer::stale:
                ++stats_.inputs_stale;
                break;
        }
    }
}

void Server::send_denied(const Endpoint& to, net::DenyReason reason, const std::string& detail) {
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
    builder_.Clear();
    const auto body = net::CreateDenied(builder_, reason, builder_.CreateString(detail));
    send(to, protocol::finish_packet(builder_, 0, net::Body::Denied, body.Union()));
}

void Server::send_accepted(const Session& s) {
    const Room& room = *rooms_[s.room];
    builder_.Clear();
    const auto map_name = builder_.CreateString(room.map().name);
    net::AcceptedBuilder a(builder_);
    a.add_client_id(s.client_id);
    a.add_room(s.room);
    a.add_slot(s.slot ? static_cast<std::int32_t>(*s.slot) : -1);
    a.add_team(s.slot ? game::index_of(room.match().team_of(*s.slot)) : 0);
    a.add_tick_rate_hz(config_.tick_rate_hz);
    a.add_snapshot_rate_hz(config_.snapshot_rate_hz);
    a.add_map_name(map_name);
    a.add_map_hash(room.map_hash());
    a.add_seed(room.seed());
    a.add_input_redundancy(config_.input_redundancy);
    a.add_session_secret(s.secret);
    send(s.endpoint, protocol::finish_packet(builder_, s.client_id, net::Body::Accepted,
                                             a.Finish().Union(), s.secret));
}

void Server::send_disconnect(const Session& s, net::DisconnectReason reason,
                             const std::string& detail) {
    builder_.Clear();
    const auto body = net::CreateDisconnect(builder_, reason, builder_.CreateString(detail));
    send(s.endpoint, protocol::finish_packet(builder_, s.client_id, net::Body::Disconnect,
                                             body.Union(), s.secret));
}

void Server::remove_session(std::uint32_t client_id) {
    const auto it = sessions_.find(client_id);
    if (it == sessions_.end()) return;
    Session& s = it->second;
    if (s.slot) rooms_[s.room]->unseat_client(*s.slot);
    if (s.connected) by_endpoint_.erase(s.endpoint);
    sessions_.erase(it);
}

void Server::expire_sessions() {
    const auto timeout = static_cast<std::uint64_t>(config_.timeout_s * config_.tick_rate_hz);
    const auto grace = static_cast<std::uint64_t>(config_.grace_s * config_.tick_rate_hz);
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

void Server::tick() {
    if (shut_down_) return;
    ++tick_;
    ++stats_.ticks;
    expire_sessions();

    // One pass over the sessions gathers every room's inputs (not a pass per room).
    scratch_inputs_.resize(rooms_.size());
    for (std::size_t r = 0; r < rooms_.size(); ++r)
        scratch_inputs_[r].assign(rooms_[r]->match().slot_count(), game::Input{});
    for (auto& [id, s] : sessions_) {
        if (!s.slot) continue;
        const std::uint64_t repeated_before = s.inputs.repeated();
        const game::Input in = s.inputs.next();
        stats_.inputs_repeated += s.inputs.repeated() - repeated_before;
        if (s.connected) scratch_inputs_[s.room][*s.slot] = in;
    }

    for (auto& room : rooms_) {
        const auto events = room->step(scratch_inputs_[room->index()], tick_);
        if (!events.empty())
            for (auto& [id, s] : sessions_)
                if (s.room == room->index()) {
                    s.pending_events.insert(s.pending_events.end(), events.begin(), events.end());
                    // A client that never acknowledges keeps only the newest.
                    if (s.pending_events.size() > kMaxPendingEvents)
                        s.pending_events.erase(s.pending_events.begin(),
                                               s.pending_events.end() -
                                                   static_cast<std::ptrdiff_t>(kMaxPendingEvents));
                }
        if (auto summary = room->restart_if_finished()) {
            finished_.push_back(*summary);
            delta_streams_[room->index()].reset();  // the new match's first frame reuses a tick
            for (auto& [id, s] : sessions_) {
                if (s.room != room->index()) continue;
                s.inputs.hold_idle();
                s.acked_snapshot = 0;  // the old match's frames are gone
            }
        }
    }

    send_snapshots();
}

void Server::send_snapshots() {
    const std::uint32_t interval = config_.tick_rate_hz / config_.snapshot_rate_hz;
    for (auto& [id, s] : sessions_) {
        // Clients are spread over the ticks of a snapshot interval, so the
        // sending cost is even from tick to tick instead of a spike every other.
        if (!s.connected || (tick_ + s.spread) % interval != 0) continue;
        const Room& room = *rooms_[s.room];
        const protocol::Frame* baseline =
            config_.delta_snapshots ? room.frame_at(s.acked_snapshot) : nullptr;
        protocol::SnapshotExtras extras;
        extras.last_input_sequence = s.inputs.last_applied_sequence();
        extras.pong_id = s.last_ping_id;
        extras.server_tick_ms = last_tick_ms_;
        extras.match_seed = room.seed();
        extras.match_start_tick = room.match_start_tick();
        extras.session_secret = s.secret;
        if (s.roster_acked_version < room.roster_version()) {
            extras.roster = &room.roster();
            s.roster_sent_version = room.roster_version();
            s.roster_sent_tick = tick_;
        }
        extras.events = s.pending_events;
        const auto bytes = protocol::encode_snapshot(builder_, id, room.latest_frame(), baseline,
                                                     extras, &delta_streams_[s.room]);
        ++(baseline != nullptr ? stats_.snapshots_delta : stats_.snapshots_full);
        send(s.endpoint, bytes);
    }
}

std::vector<MatchSummary> Server::shutdown() {
    std::vector<MatchSummary> out;
    if (shut_down_) return out;
    for (const auto& [id, s] : sessions_)
        if (s.connected) send_disconnect(s, net::DisconnectReason::server_shutdown, "");
    for (auto& room : rooms_)
        if (auto summary = room->finish()) out.push_back(*summary);
    finished_.insert(finished_.end(), out.begin(), out.end());
    shut_down_ = true;
    return out;
}

}  // namespace carom::server
