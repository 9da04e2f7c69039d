#pragma once
// The in-process link: a Transport that keeps what the server sends, per
// destination, and a scripted client that speaks the protocol by hand (its
// keys and seals included), so tests see every byte without a socket.
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <vector>

#include "carom/client/replica.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/protocol/client_report.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/seal.hpp"
#include "server.hpp"

namespace carom::server::test {

inline const std::filesystem::path kMaps = CAROM_MAPS_DIR;

inline game::Map map_named(const char* name) {
    return maps::load_map_file(kMaps / name).value();
}

struct Datagram {
    std::vector<std::uint8_t> bytes;  // aligned copy, as a receive buffer would be
    // The Packet ("CNET") in it, or null.
    const net::Packet* packet() const {
        if (protocol::classify(bytes) != protocol::DatagramKind::packet) return nullptr;
        const auto p = protocol::verify_packet(bytes);
        return p ? *p : nullptr;
    }
    // The ServerUpdate ("CNSU") in it, or null.
    const net::ServerUpdate* update() const {
        if (protocol::classify(bytes) != protocol::DatagramKind::server_update) return nullptr;
        const auto u = protocol::verify_server_update(bytes);
        return u ? *u : nullptr;
    }
};

class Link final : public Transport {
  public:
    void send(const Endpoint& to, std::span<const std::uint8_t> datagram) override {
        inbox[to].push_back({std::vector<std::uint8_t>(datagram.begin(), datagram.end())});
    }
    std::map<Endpoint, std::deque<Datagram>> inbox;
};

inline Endpoint endpoint(std::uint8_t host, std::uint16_t port) {
    Endpoint e;
    e.address[10] = e.address[11] = 0xFF;
    e.address[12] = 127;
    e.address[15] = host;
    e.port = port;
    return e;
}

inline ServerConfig config_for(const char* map, std::uint32_t rooms = 1) {
    ServerConfig c;
    c.maps = {kMaps / map};
    c.rooms = rooms;
    return c;
}

inline CookieJar fixed_cookies() {
    return CookieJar(
        std::array<std::uint8_t, 16>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
}

// A client written against the wire format directly.
class ScriptedClient {
  public:
    ScriptedClient(Server& server, Link& link, Endpoint at, std::uint64_t token = 0)
        : server_(server), link_(link), at_(at), token_(token) {}

    void send_raw(std::span<const std::uint8_t> bytes) { server_.receive(at_, bytes); }
    // A datagram of the session: sealed with its keys, as a client sends it
    // (as it is without keys: no Challenge came).
    void send_sealed(std::span<const std::uint8_t> bytes) {
        protocol::DatagramBuffer out{};
        const auto sealed = seal_ ? seal_->seal(bytes, out) : std::span<const std::uint8_t>{};
        send_raw(sealed.empty() ? bytes : sealed);
    }

    void request(const std::string& name, std::int32_t room = -1, bool spectator = false,
                 std::size_t padding = protocol::kConnectRequestMinBytes,
                 std::uint32_t protocol = protocol::kProtocolVersion) {
        // A new attempt: a new nonce and key pair, as Connection makes.
        keys_ = protocol::make_key_pair();
        nonce_ = protocol::random_u64();
        seal_.reset();
        flatbuffers::FlatBufferBuilder b;
        const std::vector<std::uint8_t> pad(padding, 0);
        const auto body = net::CreateConnectRequest(b, b.CreateString(name), room, spectator,
                                                    b.CreateVector(pad), nonce_);
        net::PacketBuilder p(b);
        p.add_protocol(protocol);
        p.add_body_type(net::Body::ConnectRequest);
        p.add_body(body.Union());
        net::FinishPacketBuffer(b, p.Finish());
        send_raw({b.GetBufferPointer(), b.GetSize()});
    }

    // Padded to kConnectRequestMinBytes unless told otherwise, as Connection does.
    void respond(const std::string& name, std::uint64_t cookie, std::int32_t room = -1,
                 bool spectator = false, std::size_t min_bytes = protocol::kConnectRequestMinBytes,
                 std::uint32_t protocol = protocol::kProtocolVersion) {
        // The hello: the reclaim token, sealed with the keys of the last
        // Challenge (without one, bytes no key opens).
        std::vector<std::uint8_t> hello(protocol::kHelloBytes + protocol::kSealTagBytes, 0x55);
        if (seal_) {
            std::array<std::uint8_t, protocol::kHelloBytes> token{};
            for (std::size_t i = 0; i < token.size(); ++i)
                token[i] = static_cast<std::uint8_t>(token_ >> (8 * i));
            hello = seal_->seal_hello(token);
        }
        std::size_t padding = 0;
        for (;;) {
            flatbuffers::FlatBufferBuilder b;
            const std::vector<std::uint8_t> pad(padding, 0);
            const auto body = net::CreateConnectResponse(
                b, b.CreateString(name), room, spectator, cookie, b.CreateVector(pad), nonce_,
                b.CreateVector(keys_.public_key.data(), keys_.public_key.size()),
                b.CreateVector(hello));
            net::PacketBuilder p(b);
            p.add_protocol(protocol);
            p.add_body_type(net::Body::ConnectResponse);
            p.add_body(body.Union());
            net::FinishPacketBuffer(b, p.Finish());
            const std::span<const std::uint8_t> bytes(b.GetBufferPointer(), b.GetSize());
            if (bytes.size() >= min_bytes) {
                send_raw(bytes);
                return;
            }
            padding += min_bytes - bytes.size();
        }
    }

    // The whole handshake; the Accepted or Denied reply.
    const net::Packet* connect(const std::string& name, std::int32_t room = -1,
                               bool spectator = false) {
        request(name, room, spectator);
        const net::Packet* challenge = next();
        if (challenge == nullptr || challenge->body_type() != net::Body::Challenge)
            return challenge;
        respond(name, challenge->body_as_Challenge()->cookie(), room, spectator);
        const net::Packet* reply = next();
        if (reply != nullptr && reply->body_type() == net::Body::Accepted) {
            client_id_ = reply->body_as_Accepted()->client_id();
            player = reply->body_as_Accepted()->slot() >= 0;
        }
        return reply;
    }

    // A ClientUpdate: the inputs of sequences newest - size + 1 .. newest
    // (oldest first), and the acknowledged tick (none: it asks for a
    // FullState), sealed.
    void report(std::uint32_t newest, std::span<const std::uint8_t> bits,
                std::optional<std::uint64_t> ack = std::nullopt) {
        protocol::ClientReport r;
        for (const std::uint8_t b : bits)
            r.inputs.push_back(game::Input::from_bits(b));
        r.sequence = bits.empty() ? 0 : newest;
        r.ack = ack;
        flatbuffers::FlatBufferBuilder b;
        send_sealed(protocol::encode_client_report(b, r));
    }
    // One input (sequence `sequence`), and the ack.
    void input(std::uint32_t sequence, std::uint8_t bits,
               std::optional<std::uint64_t> ack = std::nullopt) {
        report(sequence, std::span(&bits, 1), ack);
    }
    // Nothing but the acknowledgement.
    void ack(std::optional<std::uint64_t> tick) { report(0, {}, tick); }

    // From here on the client keeps an exact copy of the room's match, as
    // carom's clients do: take() reads what the server sent into it.
    void keep_copy(const game::Map& map) { copy_.emplace(game::CheckedMap(map)); }
    // Takes every datagram waiting (FullStates, ServerUpdates) into the copy;
    // anything else is left out. How many updates it took; a proof or a
    // decoding that fails is a test failure (`failures`).
    std::size_t take() {
        std::size_t taken = 0;
        auto& q = link_.inbox[at_];
        while (!q.empty()) {
            Datagram d = opened(std::move(q.front()));
            q.pop_front();
            const game::Match& m = copy_->match();
            if (const net::Packet* p = d.packet(); p && p->body_as_FullState()) {
                const auto got =
                    assembly_.add(*p->body_as_FullState(), m.slot_count(), m.puck_count());
                if (!got) {
                    failures.push_back(got.error().message);
                } else if (got->has_value()) {
                    if (const Status s = copy_->restore(**got); !s) {
                        failures.push_back(s.error().message);
                    } else {
                        ++taken, ++full_states;
                    }
                }
            } else if (const net::ServerUpdate* u = d.update(); u && copy_->holds()) {
                const std::uint64_t tick = protocol::extend16(u->head()->tick(), copy_->tick());
                const auto update = protocol::decode_update(*u, tick, {m.slot_count(), player});
                if (!update) {
                    failures.push_back(update.error().message);
                    continue;
                }
                const client::Replica::Applied applied = copy_->apply(*update, !player);
                if (applied != client::Replica::Applied::taken) {
                    failures.push_back(applied == client::Replica::Applied::mismatch
                                           ? "update: state check mismatch"
                                           : "update: not applied");
                    continue;
                }
                last_baseline = update->baseline;
                ++taken, ++updates;
            }
        }
        return taken;
    }
    const client::Replica& copy() const { return *copy_; }
    client::Replica& copy() { return *copy_; }
    bool player = true;  // the stream of a player's updates carries its sequence
    std::vector<std::string> failures;
    std::uint64_t last_baseline = 0, full_states = 0, updates = 0;

    void keep_alive() {
        flatbuffers::FlatBufferBuilder b;
        const auto body = net::CreateKeepAlive(b);
        send_sealed(protocol::finish_packet(b, client_id_, net::Body::KeepAlive, body.Union()));
    }

    void disconnect() {
        flatbuffers::FlatBufferBuilder b;
        const auto body = net::CreateDisconnect(b, net::DisconnectReason::quit);
        send_sealed(protocol::finish_packet(b, client_id_, net::Body::Disconnect, body.Union()));
    }

    // The oldest Packet the server sent here, or null; ServerUpdates before
    // it are skipped. It stays valid until the next call.
    const net::Packet* next() {
        auto& q = link_.inbox[at_];
        while (!q.empty()) {
            current_ = opened(std::move(q.front()));
            q.pop_front();
            if (const net::Packet* p = current_.packet()) {
                if (const auto* c = p->body_as_Challenge()) take_challenge(*c);
                return p;
            }
        }
        return nullptr;
    }
    // The newest packet of this type, dropping everything before it.
    const net::Packet* newest(net::Body type) {
        const net::Packet* found = nullptr;
        std::vector<Datagram> kept;
        auto& q = link_.inbox[at_];
        while (!q.empty()) {
            Datagram d = opened(std::move(q.front()));
            q.pop_front();
            if (d.packet() != nullptr && d.packet()->body_type() == type) kept = {std::move(d)};
        }
        if (!kept.empty()) {
            current_ = std::move(kept.front());
            found = current_.packet();
        }
        return found;
    }
    std::size_t pending() { return link_.inbox[at_].size(); }
    void clear() { link_.inbox[at_].clear(); }

    std::uint32_t client_id() const { return client_id_; }
    void set_client_id(std::uint32_t id) { client_id_ = id; }
    // The session's keys (from the last Challenge), or none.
    const std::optional<protocol::SessionSeal>& seal() const { return seal_; }
    // From here on it seals with `other`'s keys: what a forger would need.
    void use_keys_of(const ScriptedClient& other) { seal_ = other.seal_; }
    std::uint64_t nonce() const { return nonce_; }
    // `d` opened as this client would, without taking its sequence (as it is
    // when it does not open).
    Datagram peek(const Datagram& d) const {
        if (!protocol::is_sealed(d.bytes) || !seal_) return d;
        protocol::SessionSeal copy = *seal_;
        protocol::DatagramBuffer out{};
        protocol::SealRefusal refused{};
        const auto inner = copy.open(d.bytes, out, refused);
        if (inner.empty()) return d;
        return {std::vector<std::uint8_t>(inner.begin(), inner.end())};
    }
    // The first datagram still waiting, opened when sealed, as it is (null: none).
    std::optional<Datagram> pop() {
        auto& q = link_.inbox[at_];
        if (q.empty()) return std::nullopt;
        Datagram d = opened(std::move(q.front()));
        q.pop_front();
        return d;
    }
    Endpoint at() const { return at_; }
    void move_to(Endpoint e) { at_ = e; }

  private:
    Server& server_;
    Link& link_;
    Endpoint at_;
    std::uint64_t token_;
    // A sealed datagram opened with the session's keys (left as it is when it does not open).
    Datagram opened(Datagram d) {
        if (!protocol::is_sealed(d.bytes) || !seal_) return d;
        protocol::DatagramBuffer out{};
        protocol::SealRefusal refused{};
        const auto inner = seal_->open(d.bytes, out, refused);
        if (inner.empty()) return d;
        return {std::vector<std::uint8_t>(inner.begin(), inner.end())};
    }
    // The server's key: the session's keys (a new key, new keys).
    void take_challenge(const net::Challenge& c) {
        if (c.server_key() == nullptr) return;
        const std::vector<std::uint8_t> key(c.server_key()->begin(), c.server_key()->end());
        if (seal_ && key == server_key_) return;
        const auto keys = protocol::client_session_keys(keys_, key);
        if (!keys) return;
        seal_.emplace(*keys);
        server_key_ = key;
    }

    std::uint32_t client_id_ = 0;
    protocol::KeyPair keys_ = protocol::make_key_pair();
    std::uint64_t nonce_ = protocol::random_u64();
    std::optional<protocol::SessionSeal> seal_;
    std::vector<std::uint8_t> server_key_;
    Datagram current_;
    std::optional<client::Replica> copy_;
    protocol::FullStateAssembly assembly_;
};

}  // namespace carom::server::test
