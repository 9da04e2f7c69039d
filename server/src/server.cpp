#include "server.hpp"

#include <spdlog/spdlog.h>

#include <sodium.h>

#include <algorithm>
#include <stdexcept>

#include "carom/game/printable_name.hpp"
#include "carom/protocol/full_state.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/map_file.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/proof.hpp"

namespace carom::server {
namespace {

// Cookies are good for this long (and one bucket more).
constexpr std::uint64_t kCookieBucketSeconds = 5;
// Source addresses tracked per second for the handshake rate limit; past
// this many, new addresses get no reply until the next second.
constexpr std::size_t kMaxHandshakeAddresses = 4096;
// A FullState not acknowledged within this many ticks is sent again (more
// than a 200 ms round trip with its jitter).
constexpr std::uint64_t kFullStateResendTicks = 20;
// Updates carry the server's tick time once a second (for the HUD).
constexpr std::uint64_t kTickTimeEveryTicks = 60;

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
    std::vector<std::string> notes;
    auto loaded = protocol::load_map_file(path, &notes);
    if (!loaded) throw std::invalid_argument(loaded.error().message);
    // A stadium's fields that play no part: the host should know.
    for (const std::string& note : notes)
        spdlog::info("{}: note: {}", path.string(), note);
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
    if (config_.snapshot_rate_hz == 0 || config_.snapshot_rate_hz > game::kTickRate ||
        game::kTickRate % config_.snapshot_rate_hz != 0)
        throw std::invalid_argument(
            fmt::format("--snapshot-rate must divide the tick rate ({} Hz)", game::kTickRate));
    if (!(config_.final_pause_s >= 0.0 && config_.final_pause_s <= 600.0))
        throw std::invalid_argument("--final-pause must be 0..600 seconds");
    if (config_.input_redundancy == 0 || config_.input_redundancy > protocol::kMaxInputRedundancy)
        throw std::invalid_argument(
            fmt::format("--input-redundancy must be 1..{}", protocol::kMaxInputRedundancy));
    if (config_.snapshot_history < 2 || config_.snapshot_history > protocol::kMaxUpdateTicks)
        throw std::invalid_argument(
            fmt::format("snapshot history must be 2..{} ticks", protocol::kMaxUpdateTicks));
    if (config_.max_sessions_per_ip == 0)
        throw std::invalid_argument("--max-sessions-per-ip must be at least 1");
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    if (!config_.replay_dir.empty()) std::filesystem::create_directories(config_.replay_dir);
    if (!(config_.replay_keep_days >= 0.0 && config_.replay_keep_days <= 36500.0))
        throw std::invalid_argument("--replay-keep-days must be 0..36500");

    if (!config_.replay_dir.empty()) {
        // The index is a convenience over the files: a server that cannot
        // keep it records all the same (`carom-replay index DIR` rebuilds it).
        // Synced before the rooms start their replays, which get rows when
        // they finish.
        if (auto index = replay_index::Index::open(config_.replay_dir); !index) {
            spdlog::error("replay index: {}", index.error().message);
        } else if (auto synced = index->sync(); !synced) {
            spdlog::error("replay index: {}", synced.error().message);
        } else {
            spdlog::info("replay index: {} replays, {} added, {} rows of removed files dropped",
                         synced->kept + synced->added, synced->added, synced->removed);
            replay_index_.emplace(std::move(*index));
        }
    }

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
        o.history_ticks = config_.snapshot_history;
        o.final_pause_ticks = static_cast<std::uint32_t>(config_.final_pause_s * game::kTickRate);
        o.stats = &stats_;
        o.step_fault = config_.room_step_fault;
        rooms_.push_back(std::make_unique<Room>(std::move(o)));
    }
    const ReplayLimits limits{config_.replay_keep_days, config_.replay_max_bytes};
    if (!config_.replay_dir.empty() && limits.any()) {
        replay_budget_.emplace(config_.replay_dir, limits);
        std::vector<std::filesystem::path> recording;
        for (const auto& room : rooms_)
            recording.push_back(room->recording());
        replay_budget_->scan(recording);
        keep_replay_budget();
    }
}

void Server::keep_finished(const MatchSummary& summary) {
    ++matches_finished_;
    finished_.push_back(summary);
    if (finished_.size() > kFinishedKept) finished_.pop_front();
}

void Server::replay_finished(const MatchSummary& summary) {
    if (summary.replay.empty()) return;  // not recorded, or not to its end
    // The file has its footer; its row follows (a crash between: the next
    // start's sync adds it).
    if (replay_index_ && summary.index_row)
        if (auto added = replay_index_->add(*summary.index_row); !added)
            spdlog::error("replay index: {}", added.error().message);
    if (replay_budget_) replay_budget_->add_finished(summary.replay);
}

void Server::keep_replay_budget() {
    if (!replay_budget_) return;
    std::uint64_t recording = 0;
    for (const auto& room : rooms_)
        recording += room->recording_bytes();
    for (const auto& removed :
         replay_budget_->enforce(recording, std::filesystem::file_time_type::clock::now())) {
        spdlog::info("replay budget: removed {}", removed.string());
        // The file first, then its row: a crash between leaves a row that the
        // next start's sync drops.
        if (replay_index_)
            if (auto dropped = replay_index_->remove(removed); !dropped)
                spdlog::error("replay index: {}", dropped.error().message);
    }
    stats_.replay_bytes_kept = replay_budget_->bytes_kept() + recording;
    stats_.replay_files_removed = replay_budget_->files_removed();
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

void Server::send(const Endpoint& to, std::span<const std::uint8_t> bytes) {
    ++stats_.packets_out;
    stats_.bytes_out += bytes.size();
    transport_.send(to, bytes);
}

void Server::receive(const Endpoint& from, std::span<const std::uint8_t> datagram) {
    ++stats_.packets_in;
    stats_.bytes_in += datagram.size();
    const auto refuse = [&](protocol::PacketError error) {
        ++stats_.invalid[static_cast<std::size_t>(error)];
        // Formatting the address costs an allocation: only when it is logged.
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("dropped {} bytes from {}: {}", datagram.size(), from.to_string(),
                          protocol::to_string(error));
    };
    // The cheap refusals first (size, identifier, version), before the
    // verifier or any hash: a flood of junk costs a few compares a datagram.
    const protocol::DatagramKind kind = protocol::classify(datagram);
    if (kind == protocol::DatagramKind::client_update) return on_client_update(from, datagram);
    if (kind == protocol::DatagramKind::server_update)
        return drop_packet(from, Drop::unexpected_type);
    if (kind != protocol::DatagramKind::packet) return refuse(protocol::refusal_of(kind));
    const auto version = protocol::peek_protocol(datagram);
    if (!version) return refuse(protocol::PacketError::malformed);
    // Another version is only answered (Denied version_mismatch) for a padded
    // ConnectRequest: anything shorter is refused here.
    if (*version != protocol::kProtocolVersion &&
        datagram.size() < protocol::kConnectRequestMinBytes)
        return refuse(protocol::PacketError::wrong_version);
    const auto verified = protocol::verify_packet(datagram);
    if (!verified) return refuse(protocol::PacketError::malformed);
    const net::Packet& packet = **verified;

    switch (packet.body_type()) {
        case net::Body::ConnectRequest:
            on_connect_request(from, packet, datagram.size());
            return;
        case net::Body::ConnectResponse:
            on_connect_response(from, *packet.body_as_ConnectResponse(), datagram.size());
            return;
        case net::Body::KeepAlive:
        case net::Body::Disconnect:
            break;
        default:
            return drop_packet(from, Drop::unexpected_type);
    }

    Session* session = find_by_endpoint(from);
    if (session == nullptr) return drop_packet(from, Drop::unknown_sender);
    if (packet.client_id() != session->client_id) return drop_packet(from, Drop::wrong_client_id);
    // The address can be forged; the secret from Accepted cannot be guessed.
    if (packet.session_secret() != session->secret) return drop_packet(from, Drop::wrong_secret);
    session->last_heard_tick = tick_;
    if (packet.body_as_Disconnect() != nullptr) {
        spdlog::info("client {} ({}) left", session->client_id,
                     game::printable_name(session->name));
        remove_session(session->client_id);
    }
}

void Server::drop_packet(const Endpoint& from, Drop why) {
    ++stats_.dropped[static_cast<std::size_t>(why)];
    if (spdlog::should_log(spdlog::level::debug))
        spdlog::debug("dropped a packet from {}: {}", from.to_string(), to_string(why));
}

void Server::on_client_update(const Endpoint& from, std::span<const std::uint8_t> datagram) {
    // Before the verifier: a flood from addresses without a session costs a lookup.
    Session* session = find_by_endpoint(from);
    if (session == nullptr) return drop_packet(from, Drop::unknown_sender);
    const auto verified = protocol::verify_client_update(datagram);
    if (!verified) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        return;
    }
    const auto report =
        protocol::decode_client_report(**verified, tick_, session->inputs.last_applied_sequence());
    if (!report) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("dropped an update from {}: {}", from.to_string(),
                          report.error().message);
        return;
    }
    // The address can be forged; a proof keyed by the session's secret cannot.
    if (report->proof !=
        protocol::client_proof(session->secret, report->sequence, report->ack.value_or(0)))
        return drop_packet(from, Drop::wrong_secret);
    session->last_heard_tick = tick_;
    on_report(*session, *report);
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
        s.acked = 0;
        s.full_sent_tick = 0;
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
    s.applied.resize(config_.snapshot_history + 1);
    if (s.slot) rooms_[s.room]->seat_client(*s.slot, s.client_id, s.name);
    spdlog::info("client {} ({}) from {} joined room {} {}", s.client_id,
                 game::printable_name(s.name), from.to_string(), s.room,
                 s.slot ? fmt::format("in slot {}", *s.slot) : std::string("as a spectator"));
    const auto [it, inserted] = sessions_.emplace(s.client_id, std::move(s));
    by_endpoint_[from] = &it->second;
    send_accepted(it->second);
}

void Server::on_report(Session& session, const protocol::ClientReport& report) {
    if (!report.ack) {
        // It holds no state (it lost its own, or never had one): a FullState.
        session.acked = 0;
    } else if (*report.ack > session.acked) {
        session.acked = *report.ack;
        if (session.acked >= session.full_sent_tick) session.full_sent_tick = 0;
    }
    if (!session.slot) return;
    const std::size_t n = report.inputs.size();
    const std::uint64_t overflowed_before = session.inputs.overflowed();
    for (std::size_t i = 0; i < n; ++i) {
        const auto sequence = report.sequence - static_cast<std::uint32_t>(n - 1 - i);
        switch (session.inputs.offer(sequence, report.inputs[i].bits())) {
            case InputQueue::Offer::queued:
                // Not the report's newest: its own packet was lost or overtaken.
                if (i + 1 < n) ++stats_.inputs_recovered;
                break;
            case InputQueue::Offer::duplicate:
                ++stats_.inputs_duplicate;
                break;
            case InputQueue::Offer::stale:
                ++stats_.inputs_stale;
                break;
        }
    }
    stats_.inputs_overflowed += session.inputs.overflowed() - overflowed_before;
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
    a.add_tick_rate_hz(game::kTickRate);
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
        s.applied[tick_ % s.applied.size()] = {tick_, s.inputs.last_applied_sequence()};
    }

    // The budget is kept when a match finishes, and once a second for the
    // age limit and the replays growing meanwhile.
    bool budget_due = tick_ % game::kTickRate == 0;
    for (auto& room : rooms_) {
        room->step(scratch_inputs_[room->index()], tick_);
        if (auto summary = room->restart_if_finished()) {
            keep_finished(*summary);
            replay_finished(*summary);
            budget_due = budget_due || replay_budget_.has_value();
            for (auto& [id, s] : sessions_)
                if (s.room == room->index()) s.inputs.hold_idle();
        }
    }

    if (budget_due) keep_replay_budget();
    send_updates();
}

void Server::send_full_state(Session& s, const Room& room) {
    protocol::RoomState state = room.state();
    state.last_input_sequence = s.inputs.last_applied_sequence();
    state.server_tick_ms = last_tick_ms_;
    protocol::encode_full_state(
        builder_, s.client_id, s.secret, state,
        [&](std::span<const std::uint8_t> bytes) { send(s.endpoint, bytes); });
    s.full_sent_tick = tick_;
    ++stats_.snapshots_full;
}

void Server::send_updates() {
    const std::uint32_t interval = game::kTickRate / config_.snapshot_rate_hz;
    for (auto& [id, s] : sessions_) {
        // Clients are spread over the ticks of an update interval, so the
        // sending cost is even from tick to tick instead of a spike every other.
        if (!s.connected || (tick_ + s.spread) % interval != 0) continue;
        const Room& room = *rooms_[s.room];
        const TickHistory& history = room.history();
        // From the newest state the client holds; else from the FullState on
        // its way, until it has had time to come back acknowledged.
        std::uint64_t baseline = 0;
        if (config_.delta_snapshots) {
            if (history.covers(s.acked)) {
                baseline = s.acked;
            } else if (s.full_sent_tick > s.acked &&
                       tick_ - s.full_sent_tick < kFullStateResendTicks &&
                       history.covers(s.full_sent_tick)) {
                baseline = s.full_sent_tick;
            }
        }
        const std::optional<std::uint32_t> from = s.slot ? s.applied_at(baseline) : 0U;
        if (baseline == 0 || !from) {
            send_full_state(s, room);
            continue;
        }
        protocol::Update& u = update_;
        u.tick = tick_;
        u.baseline = baseline;
        u.proof = protocol::update_proof(s.secret, tick_, room.state_hash());
        u.sequence_advance = s.inputs.last_applied_sequence() - *from;
        history.fill(u);
        u.server_tick_ms.reset();
        if ((tick_ + s.spread) % kTickTimeEveryTicks == 0) u.server_tick_ms = last_tick_ms_;
        const protocol::UpdateContext context{room.match().slot_count(), s.slot.has_value()};
        const auto bytes = protocol::encode_update(builder_, u, context);
        // An update too long for a datagram (a long gap in a busy room): the state instead.
        if (bytes.empty() || bytes.size() > protocol::kMaxDatagramBytes) {
            send_full_state(s, room);
            continue;
        }
        ++stats_.snapshots_delta;
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
    for (const MatchSummary& s : out) {
        keep_finished(s);
        replay_finished(s);
    }
    keep_replay_budget();
    shut_down_ = true;
    return out;
}

}  // namespace carom::server
