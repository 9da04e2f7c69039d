#include "carom/client/connection.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/update.hpp"

namespace carom::client {
namespace {

// A hostile tick jump must not overflow the missed-update counter.
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
        case CloseReason::bad_map:
            return "bad map";
    }
    return "?";
}

Connection::Connection(ConnectionConfig config, SendFn send, MapStore* maps)
    : config_(std::move(config)), send_(std::move(send)), maps_(maps) {
    config_.name = protocol::clean_name(config_.name);
    policy_ = SendPolicy(config_.send);
    if (!config_.connect_token.empty()) {
        if (auto token = protocol::read_connect_token(config_.connect_token))
            connect_token_ = std::move(*token);
    }
}

void Connection::connect(std::uint64_t now_ms) {
    state_ = State::connecting;
    close_reason_ = CloseReason::none;
    close_detail_.clear();
    cookie_.reset();
    admission_ = Admission{};
    // A fresh nonce and key pair an attempt: no reply to an earlier one fits.
    nonce_ = protocol::random_u64();
    key_pair_ = protocol::make_key_pair();
    seal_.reset();
    // Sequences keep counting across reconnects: a reclaimed slot on the
    // server may still hold our old ones, and it drops anything not newer.
    unapplied_.clear();
    cushioned_ = false;
    policy_.reset();
    acks_ = {};
    if (replica_) replica_->drop();
    assembly_.clear();
    events_.clear();
    match_info_.reset();
    last_input_sequence_ = 0;
    // download_ stays: a room of the same map resumes it, asking anew.
    if (download_) download_->forget_requests();
    fetching_ = false;
    announce_map_ = false;
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
        } else {
            request_map_chunks(now_ms);
            if (now_ms - last_sent_ms_ >= config_.keepalive_ms) send_keepalive(now_ms);
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
    const protocol::DatagramKind kind = protocol::classify(bytes);
    const bool sized =
        kind != protocol::DatagramKind::too_short && kind != protocol::DatagramKind::too_long;
    if (sized && protocol::is_sealed(bytes)) return on_sealed(bytes, now_ms);
    if (kind == protocol::DatagramKind::server_update) {
        // Only a sealed update comes from the server.
        ++stats_.unsealed;
        return;
    }
    if (kind != protocol::DatagramKind::packet) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::refusal_of(kind))];
        return;
    }
    const auto verified = protocol::verify_packet(bytes);
    if (!verified) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        return;
    }
    on_packet(**verified, bytes.size(), now_ms, false);
}

void Connection::on_sealed(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    // Before a Challenge of this attempt there are no keys: nothing sealed was asked for.
    if (!seal_ || (state_ != State::connecting && state_ != State::connected)) {
        ++stats_.unasked;
        return;
    }
    protocol::SealRefusal refused{};
    const std::span<const std::uint8_t> inner = seal_->open(bytes, opened_, refused);
    if (inner.empty()) {
        ++stats_.refused_sealed[static_cast<std::size_t>(refused)];
        return;
    }
    // Sealed by the server: what is inside is still checked as any datagram is.
    const protocol::DatagramKind kind = protocol::classify(inner);
    if (kind == protocol::DatagramKind::server_update) return on_update(inner, now_ms);
    const auto verified = kind == protocol::DatagramKind::packet
                              ? protocol::verify_packet(inner)
                              : Result<const net::Packet*>(fail("not a packet"));
    if (!verified) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        return;
    }
    on_packet(**verified, bytes.size(), now_ms, true);
}

void Connection::on_packet(const net::Packet& packet, std::size_t bytes, std::uint64_t now_ms,
                           bool sealed) {
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
    // The session's packets come sealed with its keys, agreed with this
    // attempt's key pair: one in the clear is forged, whatever its source.
    if (!sealed && (type == net::Body::Accepted || type == net::Body::FullState ||
                    type == net::Body::Disconnect || type == net::Body::KeepAlive ||
                    type == net::Body::MapChunk)) {
        ++stats_.unsealed;
        return;
    }
    // The handshake's replies in the clear echo this attempt's nonce. A
    // server of another protocol may not know the field: its version
    // mismatch is taken as it is (it ends the attempt, as a timeout would).
    const auto* challenge = packet.body_as_Challenge();
    const auto* denied = packet.body_as_Denied();
    const bool other_version = packet.protocol() != protocol::kProtocolVersion &&
                               denied != nullptr &&
                               denied->reason() == net::DenyReason::version_mismatch;
    if ((challenge != nullptr && challenge->nonce() != nonce_) ||
        (denied != nullptr && !other_version && denied->nonce() != nonce_)) {
        ++stats_.unasked;
        return;
    }
    bool handled = true;
    if (challenge != nullptr && connecting) {
        if (!on_challenge(*challenge, now_ms)) return;
    } else if (const auto* a = packet.body_as_Accepted(); a != nullptr && connecting) {
        on_accepted(*a, now_ms);
    } else if (a != nullptr && connected) {
        // A duplicate, answering one of our retries: proof of life, nothing more.
    } else if (denied != nullptr && connecting) {
        on_denied(*denied);
    } else if (const auto* f = packet.body_as_FullState(); f != nullptr && connected) {
        on_full_state(*f, bytes, now_ms);
    } else if (const auto* m = packet.body_as_MapChunk(); m != nullptr && connected) {
        on_map_chunk(*m, now_ms);
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

bool Connection::on_challenge(const net::Challenge& challenge, std::uint64_t now_ms) {
    const auto* key = challenge.server_key();
    const std::span<const std::uint8_t> server_key =
        key != nullptr ? std::span<const std::uint8_t>(key->data(), key->size())
                       : std::span<const std::uint8_t>{};
    // The same server key again (a retry's Challenge) keeps the keys and what they opened.
    if (!seal_ ||
        !std::equal(server_key_.begin(), server_key_.end(), server_key.begin(), server_key.end())) {
        auto keys = protocol::client_session_keys(key_pair_, server_key);
        if (!keys) {
            ++stats_.unasked;
            return false;
        }
        // With a token its keys are mixed in: a party in the middle of the
        // exchange, without them, cannot open or seal anything of the session.
        if (connect_token_)
            keys = protocol::mix_token_keys(*keys, connect_token_->client_to_server,
                                            connect_token_->server_to_client, true);
        seal_.emplace(*keys);
        server_key_.assign(server_key.begin(), server_key.end());
    }
    cookie_ = challenge.cookie();
    last_attempt_ms_ = now_ms;
    send_connect_response(now_ms);
    return true;
}

void Connection::on_accepted(const net::Accepted& a, std::uint64_t now_ms) {
    admission_.client_id = a.client_id();
    admission_.room = a.room();
    admission_.slot = a.slot();
    admission_.team = a.team();
    admission_.tick_rate_hz = a.tick_rate_hz();
    admission_.update_rate_hz = a.update_rate_hz();
    admission_.map_name = string_of(a.map_name());
    admission_.map_hash = a.map_hash();
    admission_.map_bytes = a.map_bytes();
    admission_.slots = a.slots();
    admission_.team_size = a.team_size();
    admission_.seed = a.seed();
    const std::uint32_t k =
        a.input_redundancy() == 0 ? protocol::kDefaultInputRedundancy : a.input_redundancy();
    admission_.input_redundancy = std::min(k, protocol::kMaxInputRedundancy);
    cookie_.reset();
    state_ = State::connected;
    if (maps_ == nullptr) return;  // the caller sets or fetches the map
    // A reconnect to a room of the map held keeps it.
    if (replica_ && stored_hash_ == admission_.map_hash) return;
    replica_.reset();
    if (auto found = maps_->find(admission_.map_name, admission_.map_hash)) {
        stored_hash_ = admission_.map_hash;
        use_map(std::move(found->map), MapReady{std::move(found->source), {}});
        return;
    }
    fetch_map(now_ms);
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

Status Connection::set_map(game::Map map) {
    auto checked = game::CheckedMap::check(std::move(map));
    if (!checked) return checked.error();
    set_map(std::move(*checked));
    return {};
}

void Connection::set_map(game::CheckedMap map) {
    stored_hash_.reset();  // the caller's map: not known by the hash Accepted names
    use_map(std::move(map), MapReady{"given", {}});
}

void Connection::use_map(game::CheckedMap map, MapReady ready) {
    replica_.emplace(std::move(map), config_.history_ticks);
    assembly_.clear();
    map_ready_ = std::move(ready);
}

void Connection::on_full_state(const net::FullState& part, std::size_t bytes,
                               std::uint64_t now_ms) {
    if (!replica_) {
        ++stats_.before_map;
        return;
    }
    // A state older than the one held is not taken; but the server, which
    // sent it again for want of an acknowledgement, builds its updates on it
    // until one comes: they stay decodable, and the acknowledgement goes now.
    if (replica_->holds() && part.tick() <= replica_->tick()) {
        ++stats_.out_of_order;
        replica_->note_older_state(part.tick(), part.last_input_sequence());
        policy_.ack_soon();
        return;
    }
    const game::Match& m = replica_->match();
    const auto got = assembly_.add(part, m.slot_count(), m.puck_count(), m.disc_count());
    if (!got) {
        ++stats_.undecodable;
        return;
    }
    if (!got->has_value()) return;  // more parts to come
    const protocol::RoomState& state = **got;
    if (const Status restored = replica_->restore(state); !restored) {
        ++stats_.hash_mismatches;
        return;
    }
    ++stats_.full_states;
    server_tick_ms_ = state.server_tick_ms;
    events_.clear();  // the events of a match that was not stepped here are not known
    (void)replica_->take_events();
    policy_.ack_soon();
    input_tick_ = replica_->last_input_tick();
    on_new_state(bytes, now_ms);
}

std::uint64_t Connection::newest_tick_allowed(std::uint64_t now_ms) const {
    const std::uint64_t elapsed_ms = now_ms > taken_ms_ ? now_ms - taken_ms_ : 0;
    return taken_tick_ + (elapsed_ms + kAheadOfClockMs) * admission_.tick_rate_hz / 1000;
}

void Connection::on_update(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    if (state_ != State::connected) {
        ++stats_.unexpected;
        return;
    }
    const auto verified = protocol::verify_server_update(bytes);
    if (!verified) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        return;
    }
    if (!replica_ || !replica_->holds()) {
        ++(replica_ ? stats_.undecodable : stats_.before_map);
        return;
    }
    const net::ServerUpdate& u = **verified;
    const std::uint64_t tick = protocol::extend16(u.head()->tick(), replica_->tick());
    last_heard_ms_ = now_ms;  // it came sealed: a forged one keeps nothing alive
    if (tick <= replica_->tick()) {
        ++stats_.out_of_order;
        return;
    }
    // Bounded work even from the server: no more steps than its clock can explain.
    if (tick > newest_tick_allowed(now_ms)) {
        ++stats_.far_ahead;
        return;
    }
    const game::Match& m = replica_->match();
    const auto update = protocol::decode_update(u, tick, {m.slot_count(), admission_.slot >= 0});
    if (!update) {
        ++stats_.undecodable;
        return;
    }
    const std::uint64_t before = replica_->tick();
    const std::uint32_t sequence_before = replica_->last_input_sequence();
    const bool spectator = admission_.slot < 0;
    switch (replica_->apply(*update, spectator)) {
        case Replica::Applied::taken:
            not_held_run_ = 0;
            // The first inputs of a session come with its first
            // acknowledgement, and the updates the client can read start
            // from there: applied last, not first, of the ticks these span.
            if (replica_->last_input_sequence() != sequence_before) {
                input_tick_ = sequence_before == 0 ? tick : replica_->last_input_tick();
                // An input sent is a change (a cushion is not sent): the
                // update lists the tick it changed the slot's input on.
                if (admission_.slot >= 0 && sent(replica_->last_input_sequence())) {
                    for (auto c = update->inputs.rbegin(); c != update->inputs.rend(); ++c) {
                        if (c->tick <= before) break;
                        if (c->slot != static_cast<game::Slot>(admission_.slot)) continue;
                        input_tick_ = c->tick;
                        break;
                    }
                }
            }
            break;
        case Replica::Applied::old:
            ++stats_.out_of_order;
            return;
        case Replica::Applied::not_held:
            ++stats_.undecodable;
            // A spectator's updates start from a recent update's tick, not
            // its acknowledgement: one that missed every update since (or
            // many in a row) drops its copy and says so, and a FullState comes.
            if (spectator && ++not_held_run_ >= kSpectatorNotHeldRun) {
                not_held_run_ = 0;
                ++stats_.resyncs;
                replica_->drop();
            }
            return;
        case Replica::Applied::mismatch:
            // The server's own update, stepped to another state: the copy
            // drifted. Dropped, it acknowledges nothing, and a FullState comes.
            ++stats_.hash_mismatches;
            ++stats_.resyncs;
            stats_.steps_discarded += tick - before;
            replica_->drop();
            return;
    }
    // The server sends an update every tick_rate / update_rate ticks.
    const std::uint32_t rate = std::max<std::uint32_t>(admission_.update_rate_hz, 1);
    const std::uint64_t every = std::max<std::uint32_t>(admission_.tick_rate_hz / rate, 1);
    const std::uint64_t steps = std::min((tick - before) / every, kMaxGapCounted);
    if (steps > 1) stats_.updates_missed += steps - 1;
    ++stats_.updates;
    if (update->server_tick_ms) server_tick_ms_ = *update->server_tick_ms;
    note_round_trip(update->baseline, now_ms);
    on_new_state(bytes.size(), now_ms);
}

void Connection::on_new_state(std::size_t bytes, std::uint64_t now_ms) {
    const Replica& r = *replica_;
    taken_tick_ = r.tick();
    taken_ms_ = now_ms;
    ++stats_.states_taken;
    stats_.taken_bytes += bytes;
    last_input_sequence_ = r.last_input_sequence();
    match_info_ = MatchInfo{r.match_seed(), r.match_start_tick()};
    for (ServerEvent& e : replica_->take_events()) {
        if (events_.size() == kMaxEventsHeld) events_.erase(events_.begin());
        events_.push_back(e);
    }
    // Inputs the server has now applied need not be sent again.
    const std::uint32_t unapplied = run_end_ - last_input_sequence_;
    if (static_cast<std::int32_t>(unapplied) <= 0) {
        unapplied_.clear();
        cushioned_ = false;
    } else if (unapplied < unapplied_.size()) {
        unapplied_.erase(unapplied_.begin(),
                         unapplied_.end() - static_cast<std::ptrdiff_t>(unapplied));
        cushioned_ = false;  // the cushion was the first
    }
}

void Connection::note_ack_sent(std::uint64_t tick, std::uint64_t now_ms) {
    SentAck& a = acks_[tick % kAckRing];
    if (a.tick == tick) return;  // sent before: the first time counts
    a = {tick, now_ms, false};
}

void Connection::note_round_trip(std::uint64_t baseline, std::uint64_t now_ms) {
    // The first update built on an acknowledgement came back a round trip
    // after it left (plus up to a tick of the server's wait).
    SentAck& a = acks_[baseline % kAckRing];
    if (a.tick != baseline || a.answered || now_ms < a.sent_ms) return;
    a.answered = true;
    if (stats_.rtt_ms.size() < ConnectionStats::kMaxRttSamples)
        stats_.rtt_ms.push_back(static_cast<double>(now_ms - a.sent_ms));
}

std::uint32_t Connection::applied_through() const {
    std::uint32_t through = last_input_sequence_;
    if (!replica_ || !replica_->holds() || replica_->tick() < input_tick_) return through;
    const std::uint64_t repeated =
        std::min<std::uint64_t>(replica_->tick() - input_tick_, kSentRing - 1);
    for (std::uint64_t k = 0; k < repeated; ++k) {
        const std::uint32_t next = through + 1;
        if (next == next_sequence_ || sent_[next % kSentRing] == next) break;
        through = next;
    }
    return through;
}

void Connection::send_input(game::Input input, std::uint64_t now_ms) {
    if (state_ != State::connected) return;
    const bool player = admission_.slot >= 0;
    std::optional<std::uint64_t> held;
    if (replica_ && replica_->holds()) held = replica_->tick();
    const SendPolicy::Send send = policy_.tick(player ? std::optional(input) : std::nullopt, held);
    if (player) {
        const std::uint32_t sequence = next_sequence_++;
        const bool sent = send == SendPolicy::Send::input;
        sent_[sequence % kSentRing] = sent ? sequence : sequence + 1;
        if (sent) {
            // After ticks not sent, a new run: the server repeated the last
            // input on them, and they need not reach it.
            if (run_end_ + 1 != sequence) {
                unapplied_.clear();
                const std::uint32_t before = sequence - 1;
                // The cushion counts as not sent (applied_through, sent()): its
                // input is the one the server repeats until it comes.
                if (config_.send.cushion && before != 0) {
                    unapplied_.push_back(previous_input_);
                    cushioned_ = true;
                }
            }
            run_end_ = sequence;
            unapplied_.push_back(input);
            if (unapplied_.size() > protocol::kMaxInputRedundancy)
                unapplied_.erase(unapplied_.begin(),
                                 unapplied_.end() - std::ptrdiff_t{protocol::kMaxInputRedundancy});
        }
        previous_input_ = input;
    }
    if (send == SendPolicy::Send::nothing) return;
    protocol::ClientReport report;
    if (replica_ && replica_->holds()) {
        report.ack = replica_->tick();
        note_ack_sent(*report.ack, now_ms);
    }
    const std::size_t k = std::min<std::size_t>(admission_.input_redundancy, unapplied_.size());
    report.inputs.assign(unapplied_.end() - static_cast<std::ptrdiff_t>(k), unapplied_.end());
    report.sequence = k > 0 ? run_end_ : 0;
    transmit(protocol::encode_client_report(builder_, report), now_ms);
    // The cushion goes in the run's first datagram only: in a later one it
    // would hold the change back.
    if (cushioned_ && !unapplied_.empty()) unapplied_.erase(unapplied_.begin());
    cushioned_ = false;
}

void Connection::disconnect(std::uint64_t now_ms) {
    if (state_ != State::connecting && state_ != State::connected) return;
    builder_.Clear();
    const auto body = net::CreateDisconnect(builder_, net::DisconnectReason::quit);
    transmit(protocol::finish_packet(builder_, admission_.client_id, net::Body::Disconnect,
                                     body.Union()),
             now_ms);
    close(CloseReason::quit);
}

void Connection::send_connect_request(std::uint64_t now_ms) {
    // Pad until the datagram reaches the minimum: the vector's own header and
    // alignment make the first guess fall short by a few bytes at most.
    std::size_t padding = 0;
    for (;;) {
        builder_.Clear();
        const auto name = builder_.CreateString(config_.name);
        const auto pad = builder_.CreateVector(std::vector<std::uint8_t>(padding, 0));
        const auto body =
            net::CreateConnectRequest(builder_, name, config_.room, config_.spectator, pad, nonce_);
        const auto bytes =
            protocol::finish_packet(builder_, 0, net::Body::ConnectRequest, body.Union());
        if (bytes.size() >= protocol::kConnectRequestMinBytes) {
            transmit_clear(bytes, now_ms);
            return;
        }
        padding += protocol::kConnectRequestMinBytes - bytes.size();
    }
}

void Connection::send_connect_response(std::uint64_t now_ms) {
    // The hello: what only the server may read (the reclaim token).
    std::array<std::uint8_t, protocol::kHelloBytes> hello{};
    for (std::size_t i = 0; i < 8; ++i)
        hello[i] = static_cast<std::uint8_t>(config_.token >> (8 * i));
    const std::vector<std::uint8_t> sealed = seal_->seal_hello(hello);
    // Padded like the request (protocol 4), so the server's answer is never larger.
    std::size_t padding = 0;
    for (;;) {
        builder_.Clear();
        const auto name = builder_.CreateString(config_.name);
        const auto pad = builder_.CreateVector(std::vector<std::uint8_t>(padding, 0));
        const auto client_key =
            builder_.CreateVector(key_pair_.public_key.data(), key_pair_.public_key.size());
        const auto sealed_hello = builder_.CreateVector(sealed);
        const auto token = connect_token_
                               ? builder_.CreateVector(connect_token_->private_part)
                               : flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>>();
        const auto body = net::CreateConnectResponse(builder_, name, config_.room,
                                                     config_.spectator, cookie_.value_or(0), pad,
                                                     nonce_, client_key, sealed_hello, token);
        const auto bytes =
            protocol::finish_packet(builder_, 0, net::Body::ConnectResponse, body.Union());
        if (bytes.size() >= protocol::kConnectRequestMinBytes) {
            transmit_clear(bytes, now_ms);
            return;
        }
        padding += protocol::kConnectRequestMinBytes - bytes.size();
    }
}

void Connection::send_keepalive(std::uint64_t now_ms) {
    builder_.Clear();
    const auto body = net::CreateKeepAlive(builder_);
    transmit(
        protocol::finish_packet(builder_, admission_.client_id, net::Body::KeepAlive, body.Union()),
        now_ms);
}

void Connection::transmit(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    if (!seal_) return;  // no session can hear it yet
    const std::span<const std::uint8_t> sealed = seal_->seal(bytes, sealed_);
    if (!sealed.empty()) transmit_clear(sealed, now_ms);
}

void Connection::transmit_clear(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
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

}  // namespace carom::client
