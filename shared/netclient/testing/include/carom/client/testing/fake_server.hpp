#pragma once
// Test helpers: server packets built by hand, the server's end of the
// handshake's keys (which gives a Challenge its nonce and key and seals what
// the session sends), a room whose match the test steps and whose full
// states and updates (FullStates, ServerUpdates) it sends, and a Connection
// whose sent datagrams are captured and can be read back.
#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "carom/client/connection.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/protocol/client_report.hpp"
#include "carom/protocol/full_state.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/seal.hpp"
#include "carom/protocol/update.hpp"

namespace carom::client::test {

using Bytes = std::vector<std::uint8_t>;

inline Bytes copy_of(std::span<const std::uint8_t> bytes) {
    return {bytes.begin(), bytes.end()};
}

// A Challenge as a server builds it: ServerEnd::answer() gives it the nonce
// of the client's attempt and the server's key when they are left out.
inline Bytes challenge(std::uint64_t cookie, std::uint64_t nonce = 0,
                       std::span<const std::uint8_t> server_key = {}) {
    flatbuffers::FlatBufferBuilder b;
    const auto key = server_key.empty() ? 0 : b.CreateVector(server_key.data(), server_key.size());
    const auto body = net::CreateChallenge(b, cookie, nonce, key);
    return copy_of(protocol::finish_packet(b, 0, net::Body::Challenge, body.Union()));
}

struct AcceptedFields {
    std::uint32_t client_id = 42;
    std::uint32_t room = 3;
    std::int32_t slot = 1;
    std::uint8_t team = 1;
    std::uint32_t tick_rate_hz = 60;
    std::uint32_t update_rate_hz = 20;
    std::string map_name = "rink";
    std::uint64_t map_hash = 0x1234'5678'9abc'def0;
    std::uint64_t seed = 99;
    std::uint32_t input_redundancy = 8;
    std::uint32_t map_bytes = 0;  // protocol 6
};

// In the clear: ServerEnd::answer() seals it, as the server does.
inline Bytes accepted(const AcceptedFields& a) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateAcceptedDirect(
        b, a.client_id, a.room, a.slot, a.team, a.tick_rate_hz, a.update_rate_hz,
        a.map_name.c_str(), a.map_hash, a.seed, a.input_redundancy, 4, 2, a.map_bytes);
    return copy_of(protocol::finish_packet(b, a.client_id, net::Body::Accepted, body.Union()));
}

// ServerEnd::answer() gives it the attempt's nonce when it is left out.
inline Bytes denied(net::DenyReason reason, const std::string& detail, std::uint64_t nonce = 0,
                    std::uint32_t protocol_version = protocol::kProtocolVersion) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateDeniedDirect(b, reason, detail.c_str(), nonce);
    net::PacketBuilder p(b);
    p.add_body_type(net::Body::Denied);
    p.add_protocol(protocol_version);
    p.add_body(body.Union());
    b.Finish(p.Finish(), protocol::kPacketIdentifier);
    return copy_of({b.GetBufferPointer(), b.GetSize()});
}

inline Bytes server_disconnect(net::DisconnectReason reason, const std::string& detail) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateDisconnectDirect(b, reason, detail.c_str());
    return copy_of(protocol::finish_packet(b, 42, net::Body::Disconnect, body.Union()));
}

// The server's end of a client's handshake and session: its key pair, and
// the keys agreed with the client's newest ConnectResponse.
class ServerEnd {
  public:
    // What a server sends as `clear` to the client that sent `sent`: a
    // Challenge or Denied without a nonce gets the newest attempt's (and a
    // Challenge the server's key); a datagram of the session is sealed once
    // the client answered a Challenge. Anything else goes as it is.
    Bytes answer(const Bytes& clear, const std::vector<Bytes>& sent) {
        follow(sent);
        if (protocol::classify(clear) == protocol::DatagramKind::server_update) return seal(clear);
        const auto v = protocol::verify_packet(clear);
        if (!v) return clear;
        const net::Packet& p = **v;
        if (const auto* c = p.body_as_Challenge()) {
            if (c->nonce() != 0 || c->server_key() != nullptr) return clear;
            return challenge(c->cookie(), nonce_, keys_.public_key);
        }
        if (const auto* d = p.body_as_Denied()) {
            if (d->nonce() != 0) return clear;
            return denied(d->reason(), d->detail() != nullptr ? d->detail()->str() : "", nonce_,
                          p.protocol());
        }
        if (p.body_type() == net::Body::Status) return clear;
        return seal(clear);
    }
    // `clear` sealed with the session's keys (as it is when there are none).
    Bytes seal(const Bytes& clear) {
        if (!seal_) return clear;
        protocol::DatagramBuffer out{};
        return copy_of(seal_->seal(clear, out));
    }
    // A datagram the client sent, as the server reads it: opened when
    // sealed (with a window of its own: any may be read again).
    Bytes read(const Bytes& sent) const {
        if (!protocol::is_sealed(sent) || !seal_) return sent;
        protocol::SessionSeal reader(seal_->keys());
        protocol::DatagramBuffer out{};
        protocol::SealRefusal refused{};
        const auto inner = reader.open(sent, out, refused);
        REQUIRE_MESSAGE(!inner.empty(), "a sealed datagram of the client that does not open");
        return copy_of(inner);
    }
    // The hello of the newest ConnectResponse (its reclaim token).
    std::uint64_t hello_token() const { return hello_token_; }
    std::uint64_t nonce() const { return nonce_; }
    bool keyed() const { return seal_.has_value(); }

    // The nonce and keys of the client's newest attempt, from what it sent.
    void follow(const std::vector<Bytes>& sent) {
        for (std::size_t i = sent.size(); i-- > 0;) {
            if (protocol::is_sealed(sent[i])) continue;
            const auto v = protocol::verify_packet(sent[i]);
            if (!v) continue;
            if (const auto* q = (*v)->body_as_ConnectRequest()) {
                if (q->nonce() != nonce_) seal_.reset();
                nonce_ = q->nonce();
                return;
            }
            if (const auto* r = (*v)->body_as_ConnectResponse()) {
                nonce_ = r->nonce();
                if (r->client_key() == nullptr || r->sealed() == nullptr) return;
                const std::vector<std::uint8_t> key(r->client_key()->begin(),
                                                    r->client_key()->end());
                if (seal_ && key == client_key_) return;
                const auto keys = protocol::server_session_keys(keys_, key);
                REQUIRE(keys.has_value());
                seal_.emplace(*keys);
                client_key_ = key;
                const auto hello = seal_->open_hello({r->sealed()->data(), r->sealed()->size()});
                REQUIRE(hello.has_value());
                hello_token_ = 0;
                for (std::size_t k = 0; k < 8 && k < hello->size(); ++k)
                    hello_token_ |= std::uint64_t{(*hello)[k]} << (8 * k);
                return;
            }
        }
    }

  private:
    protocol::KeyPair keys_ = protocol::make_key_pair();
    std::optional<protocol::SessionSeal> seal_;
    std::vector<std::uint8_t> client_key_;
    std::uint64_t nonce_ = 0;
    std::uint64_t hello_token_ = 0;
};

// A datagram sealed with keys nobody agreed (at a sequence no test reaches
// otherwise): what a forger can send.
inline Bytes forged_seal(const Bytes& clear, std::uint64_t sequence = 1000) {
    protocol::SessionKeys keys;
    keys.send = protocol::make_key_pair().public_key;
    protocol::SessionSeal seal(keys, sequence);
    protocol::DatagramBuffer out{};
    return copy_of(seal.seal(clear, out));
}

inline game::Map shipped_map(const char* name) {
    const std::filesystem::path dirs[] = {CAROM_MAPS_DIR};
    return maps::find_map(name, dirs).value();
}

// A room of a shipped map as a server keeps it for one client: its match,
// stepped by the test, and the full states and updates it would send that client.
class FakeRoom {
  public:
    explicit FakeRoom(const char* map_name = "rink", std::optional<game::Slot> client_slot = 1)
        : map_(shipped_map(map_name)), match_(map_, 99), client_slot_(client_slot) {
        for (game::Slot s = 0; s < match_.slot_count(); ++s) {
            std::string name = "p";
            name += std::to_string(s);
            match_.join(s, name);
        }
        sequences_[tick_] = 0;
    }

    const game::Map& map() const { return map_; }
    const game::Match& match() const { return match_; }
    std::uint64_t tick() const { return tick_; }
    std::uint64_t map_hash() const { return protocol::map_hash(map_); }

    // One server tick with these inputs (one per slot); `applied` is the
    // client's newest input the server applied by it.
    void step(std::span<const game::Input> inputs, std::uint32_t applied = 0) {
        ++tick_;
        std::vector<protocol::InputChange> changes;
        for (game::Slot s = 0; s < match_.slot_count(); ++s)
            if (match_.active(s) && inputs[s] != match_.last_input(s))
                changes.push_back(
                    {0, s, protocol::InputDelta::between(match_.last_input(s), inputs[s])});
        match_.step(inputs);
        changes_[tick_] = changes;
        sequences_[tick_] = applied;
    }
    void step_idle(int ticks = 1) {
        const std::vector<game::Input> idle(match_.slot_count());
        for (int i = 0; i < ticks; ++i)
            step(idle, sequences_[tick_]);
    }

    Bytes full_state(std::uint32_t client_id = 42) const {
        protocol::RoomState s;
        s.tick = tick_;
        s.state_hash = match_.state_hash();
        s.last_input_sequence = sequences_.at(tick_);
        s.match_seed = match_.seed();
        s.match_start_tick = tick_ - match_.tick();
        s.match = match_.save();
        s.bots.assign(match_.slot_count(), false);
        s.bots[0] = true;
        std::vector<Bytes> parts;
        flatbuffers::FlatBufferBuilder b;
        protocol::encode_full_state(
            b, client_id, s, [&](std::span<const std::uint8_t> d) { parts.push_back(copy_of(d)); });
        REQUIRE(parts.size() == 1);
        return parts.front();
    }
    // The update of (baseline, tick], in the clear (ServerEnd seals it).
    Bytes update(std::uint64_t baseline) const { return update_with(baseline, {}); }
    // With `state` for the state check: what a copy that drifted sees.
    Bytes drifted_update(std::uint64_t baseline, std::uint16_t state) const {
        return update_with(baseline, state);
    }

  private:
    Bytes update_with(std::uint64_t baseline, std::optional<std::uint16_t> state) const {
        protocol::Update u;
        u.tick = tick_;
        u.baseline = baseline;
        u.state = state.value_or(protocol::state_check(match_.state_hash()));
        u.sequence_advance = sequences_.at(tick_) - sequences_.at(baseline);
        for (std::uint64_t t = baseline + 1; t <= tick_; ++t)
            for (protocol::InputChange c : changes_.at(t)) {
                c.tick = t;
                u.inputs.push_back(c);
            }
        flatbuffers::FlatBufferBuilder b;
        return copy_of(
            protocol::encode_update(b, u, {match_.slot_count(), client_slot_.has_value()}));
    }

    game::Map map_;
    game::Match match_;
    std::optional<game::Slot> client_slot_;
    std::uint64_t tick_ = 100;
    std::map<std::uint64_t, std::vector<protocol::InputChange>> changes_;
    std::map<std::uint64_t, std::uint32_t> sequences_;
};

// A Connection with everything it sends kept in `sent`, and the server's end.
struct Harness {
    std::vector<Bytes> sent;
    Connection connection;
    ServerEnd server;

    explicit Harness(ConnectionConfig config = {}, MapStore* maps = nullptr)
        : connection(
              std::move(config),
              [this](std::span<const std::uint8_t> bytes) { sent.push_back(copy_of(bytes)); },
              maps) {}

    // As the server sends it (ServerEnd::answer: nonce, key, seal).
    void receive(const Bytes& bytes, std::uint64_t now_ms) {
        connection.on_datagram(server.answer(bytes, sent), now_ms);
    }
    // As it is: what anyone can send.
    void receive_raw(const Bytes& bytes, std::uint64_t now_ms) {
        connection.on_datagram(bytes, now_ms);
    }

    // The last datagram sent, opened and verified; fails the test when it is not a Packet.
    const net::Packet& last_sent() {
        REQUIRE(!sent.empty());
        server.follow(sent);
        const Bytes& read = reads_.emplace_back(server.read(sent.back()));
        const auto v = protocol::verify_packet(read);
        REQUIRE(v.ok());
        return **v;
    }
    // The last datagram sent as a ClientUpdate, read as the server reads it
    // (its 16-bit fields near `tick` and `last_sequence`).
    protocol::ClientReport last_report(std::uint64_t tick = 1000,
                                       std::uint32_t last_sequence = 0) const {
        REQUIRE(!sent.empty());
        const Bytes read = server.read(sent.back());
        const auto v = protocol::verify_client_update(read);
        REQUIRE(v.ok());
        const auto r = protocol::decode_client_report(**v, tick, last_sequence);
        REQUIRE_MESSAGE(r.ok(), r.error().message);
        return *r;
    }

    // Runs the handshake to connected with the given Accepted fields.
    void connect(const AcceptedFields& fields = {}, std::uint64_t now_ms = 0) {
        connection.connect(now_ms);
        receive(challenge(7), now_ms);
        receive(accepted(fields), now_ms);
        REQUIRE(connection.state() == State::connected);
    }
    // Connected to `room` (its map given), as the client in its slot (or a spectator).
    void join(const FakeRoom& room, std::int32_t slot = 1) {
        AcceptedFields f;
        f.slot = slot;
        f.map_hash = room.map_hash();
        connect(f);
        REQUIRE(connection.set_map(room.map()));
    }

  private:
    // Every datagram last_sent() opened: a Packet it returned stays readable
    // after the next call.
    std::deque<Bytes> reads_;
};

}  // namespace carom::client::test
