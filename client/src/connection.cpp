#include "carom/client/connection.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace carom::client {
namespace {

constexpr std::uint32_t kDefaultRedundancy = 8;
// A hostile tick jump must not overflow the missed-snapshot counter.
constexpr std::uint64_t kMaxGapCounted = std::uint64_t{1} << 32;

std::string string_of(const flatbuffers::String* s) {
    return s != nullptr ? s->str() : std::string();
}

}  // namespace

std::string_view to_string(State state) {
    switch (state) {
        case State::idle:
            return "idle";
        case State::connecting:
            return "connecting";
        case State::connected:
            return "connected";
        case State::closed:
            return "closed";
    }
    return "?";
}

std::string_view to_string(CloseReason reason) {
    switch (reason) {
        case CloseReason::none:
            return "none";
        case CloseReason::denied:
            return "denied";
        case CloseReason::connect_timeout:
            return "connect timeout";
        case CloseReason::timeout:
            return "timeout";
        case CloseReason::server_disconnect:
            return "server disconnect";
        case CloseReason::quit:
            return "quit";
    }
    return "?";
}

Connection::Connection(ConnectionConfig config, SendFn send)
    : config_(std::move(config)), send_(std::move(send)) {
    config_.name = protocol::clean_name(config_.name);
}

void Connection::connect(std::uint64_t now_ms) {
    state_ = State::connecting;
    close_reason_ = CloseReason::none;
    close_detail_.clear();
    cookie_.reset();
    session_ = Session{};
    // Sequences keep counting across reconnects: a reclaimed slot on the
    // server may still hold our old ones, and it drops anything not newer.
    history_.clear();
    frames_ = {};
    newest_tick_.reset();
    roster_.clear();
    events_.clear();
    newest_event_tick_.reset();
    last_input_sequence_ = 0;
    connect_started_ms_ = now_ms;
    last_attempt_ms_ = now_ms;
    last_heard_ms_ = now_ms;
    send_connect_request(now_ms);
}

void Connection::update(std::uint64_t now_ms) {
    if (state_ == State::connecting) {
        if (now_ms - connect_started_ms_ >= config_.connect_timeout_ms) {
            close(CloseReason::connect_timeout);
        } else if (now_ms - last_attempt_ms_ >= config_.connect_retry_ms) {
            last_attempt_ms_ = now_ms;
            // Once a cookie came back, the response is what the server waits for.
            if (cookie_) {
                send_connect_response(now_ms);
            } else {
                send_connect_request(now_ms);
            }
        }
    } else if (state_ == State::connected) {
        if (now_ms - last_heard_ms_ >= config_.timeout_ms) {
            close(CloseReason::timeout);
        } else if (now_ms - last_sent_ms_ >= config_.keepalive_ms) {
            send_keepalive(now_ms);
        }
    }
}

void Connection::on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    ++stats_.packets_in;
    stats_.bytes_in += bytes.size();
    const bool misaligned = reinterpret_cast<std::uintptr_t>(bytes.data()) % 8 != 0;
    if (!bytes.empty() && misaligned && bytes.size() <= protocol::kMaxDatagramBytes) {
        std::memcpy(aligned_.data(), bytes.data(), bytes.size());
        bytes = {reinterpret_cast<const std::uint8_t*>(aligned_.data()), bytes.size()};
    }
    const protocol::VerifiedPacket verified = protocol::verify_packet(bytes);
    if (verified.packet == nullptr) {
        ++stats_.invalid[static_cast<std::size_t>(verified.error)];
        return;
    }
    on_packet(*verified.packet, bytes.size(), now_ms);
}

void Connection::on_packet(const net::Packet& packet, std::size_t bytes, std::uint64_t now_ms) {
    if (state_ != State::connecting && state_ != State::connected) {
        ++stats_.unexpected;
        return;
    }
    const net::Body type = packet.body_type();
    // Denied and Disconnect stay readable across versions (fields only get
    // appended), and a version_mismatch denial is exactly what we must see.
    if (packet.protocol() != protocol::kProtocolVersion && type != net::Body::Denied &&
        type != net::Body::Disconnect) {
        ++stats_.wrong_protocol;
        return;
    }
    const bool connecting = state_ == State::connecting;
    const bool connected = state_ == State::connected;
    // Once accepted, what the server sends in the session carries its secret:
    // a packet forged from the server's address without it is dropped.
    if (connected && packet.session_secret() != session_.secret &&
        (type == net::Body::Snapshot || type == net::Body::Disconnect ||
         type == net::Body::KeepAlive)) {
        ++stats_.wrong_secret;
        return;
    }
    bool handled = true;
    if (const auto* c = packet.body_as_Challenge(); c != nullptr && connecting) {
        on_challenge(*c, now_ms);
    } else if (const auto* a = packet.body_as_Accepted(); a != nullptr && connecting) {
        on_accepted(*a);
    } else if (a != nullptr && connected) {
        // A duplicate, answering one of our retries: proof of life, nothing more.
    } else if (const auto* d = packet.body_as_Denied(); d != nullptr && connecting) {
        on_denied(*d);
    } else if (const auto* s = packet.body_as_Snapshot(); s != nullptr && connected) {
        on_snapshot(*s, bytes, now_ms);
    } else if (const auto* k = packet.body_as_KeepAlive(); k != nullptr && connected) {
        on_pong(k->ping_id(), now_ms);
    } else if (const auto* x = packet.body_as_Disconnect(); x != nullptr) {
        on_disconnect(*x);
    } else {
        handled = false;
    }
    if (handled) {
        last_heard_ms_ = now_ms;
    } else {
        ++stats_.unexpected;
    }
}

void Connection::on_challenge(const net::Challenge& challenge, std::uint64_t now_ms) {
    cookie_ = challenge.cookie();
    last_attempt_ms_ = now_ms;
    send_connect_response(now_ms);
}

void Connection::on_accepted(const net::Accepted& a) {
    session_.client_id = a.client_id();
    session_.secret = a.session_secret();
    session_.room = a.room();
    session_.slot = a.slot();
    session_.team = a.team();
    session_.tick_rate_hz = a.tick_rate_hz();
    session_.snapshot_rate_hz = a.snapshot_rate_hz();
    session_.map_name = string_of(a.map_name());
    session_.map_hash = a.map_hash();
    session_.seed = a.seed();
    const std::uint32_t k = a.input_redundancy() == 0 ? kDefaultRedundancy : a.input_redundancy();
    session_.input_redundancy = std::min(k, kMaxRedundancy);
    cookie_.reset();
    state_ = State::connected;
}

void Connection::on_denied(const net::Denied& denied) {
    deny_reason_ = denied.reason();
    close_detail_ = string_of(denied.detail());
    close(CloseReason::denied);
}

void Connection::on_disconnect(const net::Disconnect& disconnect) {
    disconnect_reason_ = disconnect.reason();
    close_detail_ = string_of(disconnect.detail());
    close(CloseReason::server_disconnect);
}

void Connection::on_snapshot(const net::Snapshot& s, std::size_t bytes, std::uint64_t now_ms) {
    on_pong(s.pong_id(), now_ms);
    const std::uint64_t tick = s.tick();
    if (newest_tick_ && tick <= *newest_tick_) {
        ++stats_.snapshots_out_of_order;
        return;
    }
    const protocol::Frame* baseline =
        s.baseline_tick() == 0 ? nullptr : frame_at(s.baseline_tick());
    std::optional<protocol::Frame> frame = protocol::decode_snapshot(s, baseline, decode_error_);
    if (!frame) {
        ++stats_.snapshots_undecodable;
        return;
    }
    if (newest_tick_) {
        // The server sends one snapshot every tick_rate / snapshot_rate ticks.
        const std::uint32_t rate = std::max<std::uint32_t>(session_.snapshot_rate_hz, 1);
        const std::uint64_t every = std::max<std::uint32_t>(session_.tick_rate_hz / rate, 1);
        const std::uint64_t steps = std::min((tick - *newest_tick_) / every, kMaxGapCounted);
        if (steps > 1) stats_.snapshots_missed += steps - 1;
    }
    newest_tick_ = tick;
    frames_[tick % kFrameRing] = HeldFrame{true, std::move(*frame)};

    ++stats_.snapshots_received;
    ++(s.baseline_tick() == 0 ? stats_.snapshots_full : stats_.snapshots_delta);
    stats_.snapshot_bytes += bytes;
    if (s.baseline_tick() == 0) match_info_ = MatchInfo{s.match_seed(), s.match_start_tick()};
    last_input_sequence_ = s.last_input_sequence();
    server_tick_ms_ = s.server_tick_ms();
    if (s.players() != nullptr) {
        roster_.clear();
        for (const net::PlayerInfo* p : *s.players())
            roster_.push_back(
                {p->slot(), p->active(), string_of(p->name()), p->bot(), p->goals(),
                 p->team() == schema::Team::right ? game::Team::right : game::Team::left});
    }
    if (s.events() != nullptr) {
        // Events are resent until acknowledged: those at or before the newest
        // tick already seen came in an earlier snapshot.
        const std::optional<std::uint64_t> seen = newest_event_tick_;
        for (const net::MatchEventNet* e : *s.events()) {
            if (seen && e->tick() <= *seen) continue;
            newest_event_tick_ = std::max(newest_event_tick_.value_or(0), e->tick());
            if (events_.size() == kMaxEventsHeld) events_.erase(events_.begin());
            game::MatchEvent::Kind kind = game::MatchEvent::Kind::goal;
            switch (e->kind()) {
                case schema::EventKind::goal:
                    break;
                case schema::EventKind::kickoff:
                    kind = game::MatchEvent::Kind::kickoff;
                    break;
                case schema::EventKind::end:
                    kind = game::MatchEvent::Kind::end;
                    break;
                default:
                    ++stats_.events_unknown;  // a newer server's kind: not ours to read
                    continue;
            }
            events_.push_back(
                {kind, e->tick(),
                 e->team() == schema::Team::right ? game::Team::right : game::Team::left,
                 e->scorer(), e->own_goal_by(), e->puck(), e->draw()});
        }
    }
}

void Connection::on_pong(std::uint32_t pong_id, std::uint64_t now_ms) {
    if (pong_id == 0) return;
    SentPing& ping = pings_[pong_id % kPingRing];
    // Only the first echo of a ping is a round trip; later snapshots repeat it.
    if (ping.id != pong_id || now_ms < ping.sent_ms) return;
    ping.id = 0;
    if (stats_.rtt_ms.size() < ConnectionStats::kMaxRttSamples)
        stats_.rtt_ms.push_back(static_cast<double>(now_ms - ping.sent_ms));
}

void Connection::send_input(game::Input input, std::uint64_t now_ms) {
    if (state_ != State::connected) return;
    if (session_.slot >= 0) {
        history_.emplace_back(next_sequence_++, input.bits());
        if (history_.size() > kMaxRedundancy)
            history_.erase(history_.begin(), history_.end() - std::ptrdiff_t{kMaxRedundancy});
    }
    const std::size_t k = std::min<std::size_t>(session_.input_redundancy, history_.size());
    const std::span<const net::InputCommand> newest(history_.data() + (history_.size() - k), k);
    const std::uint32_t ping_id = next_ping(now_ms);

    builder_.Clear();
    const auto inputs = builder_.CreateVectorOfStructs(newest.data(), newest.size());
    const auto body = net::CreateClientInput(builder_, inputs, newest_tick_.value_or(0), ping_id);
    transmit(protocol::finish_packet(builder_, session_.client_id, net::Body::ClientInput,
                                     body.Union(), session_.secret),
             now_ms);
}

void Connection::disconnect(std::uint64_t now_ms) {
    if (state_ != State::connecting && state_ != State::connected) return;
    builder_.Clear();
    const auto body = net::CreateDisconnect(builder_, net::DisconnectReason::quit);
    transmit(protocol::finish_packet(builder_, session_.client_id, net::Body::Disconnect,
                                     body.Union(), session_.secret),
             now_ms);
    close(CloseReason::quit);
}

const protocol::Frame* Connection::latest_frame() const {
    return newest_tick_ ? frame_at(*newest_tick_) : nullptr;
}

const protocol::Frame* Connection::frame_at(std::uint64_t tick) const {
    const HeldFrame& held = frames_[tick % kFrameRing];
    return held.valid && held.frame.tick == tick ? &held.frame : nullptr;
}

void Connection::send_connect_request(std::uint64_t now_ms) {
    // Pad until the datagram reaches the minimum: the vector's own header and
    // alignment make the first guess fall short by a few bytes at most.
    std::size_t padding = 0;
    for (;;) {
        builder_.Clear();
        const auto name = builder_.CreateString(config_.name);
        const auto pad = builder_.CreateVector(std::vector<std::uint8_t>(padding, 0));
        const auto body = net::CreateConnectRequest(builder_, name, config_.room, config_.spectator,
                                                    config_.token, pad);
        const auto bytes =
            protocol::finish_packet(builder_, 0, net::Body::ConnectRequest, body.Union());
        if (bytes.size() >= protocol::kConnectRequestMinBytes) {
            transmit(bytes, now_ms);
            return;
        }
        padding += protocol::kConnectRequestMinBytes - bytes.size();
    }
}

void Connection::send_connect_response(std::uint64_t now_ms) {
    // Padded like the request (protocol 4), so the server's answer is never larger.
    std::size_t padding = 0;
    for (;;) {
        builder_.Clear();
        const auto name = builder_.CreateString(config_.name);
        const auto pad = builder_.CreateVector(std::vector<std::uint8_t>(padding, 0));
        const auto body =
            net::CreateConnectResponse(builder_, name, config_.room, config_.spectator,
                                       config_.token, cookie_.value_or(0), pad);
        const auto bytes =
            protocol::finish_packet(builder_, 0, net::Body::ConnectResponse, body.Union());
        if (bytes.size() >= protocol::kConnectRequestMinBytes) {
            transmit(bytes, now_ms);
            return;
        }
        padding += protocol::kConnectRequestMinBytes - bytes.size();
    }
}

void Connection::send_keepalive(std::uint64_t now_ms) {
    builder_.Clear();
    const auto body = net::CreateKeepAlive(builder_, next_ping(now_ms));
    transmit(protocol::finish_packet(builder_, session_.client_id, net::Body::KeepAlive,
                                     body.Union(), session_.secret),
             now_ms);
}

void Connection::transmit(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    ++stats_.packets_out;
    stats_.bytes_out += bytes.size();
    last_sent_ms_ = now_ms;
    send_(bytes);
}

void Connection::close(CloseReason reason) {
    state_ = State::closed;
    close_reason_ = reason;
    cookie_.reset();
}

std::uint32_t Connection::next_ping(std::uint64_t now_ms) {
    // 0 means "no ping" in Snapshot.pong_id, so the counter skips it on wrap.
    if (++ping_counter_ == 0) ++ping_counter_;
    pings_[ping_counter_ % kPingRing] = {ping_counter_, now_ms};
    return ping_counter_;
}

}  // namespace carom::client
