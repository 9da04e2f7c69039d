#pragma once
// The in-process link: a Transport that keeps what the server sends, per
// destination, and a scripted client that speaks the protocol by hand, so
// tests see every byte without a socket.
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <vector>

#include "server.hpp"

namespace carom::server::test {

inline const std::filesystem::path kMaps = CAROM_MAPS_DIR;

struct Datagram {
    std::vector<std::uint8_t> bytes;  // aligned copy, as a receive buffer would be
    const net::Packet* packet() const { return protocol::verify_packet(bytes).packet; }
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

    void request(const std::string& name, std::int32_t room = -1, bool spectator = false,
                 std::size_t padding = protocol::kConnectRequestMinBytes,
                 std::uint32_t protocol = protocol::kProtocolVersion) {
        flatbuffers::FlatBufferBuilder b;
        const std::vector<std::uint8_t> pad(padding, 0);
        const auto body = net::CreateConnectRequest(b, b.CreateString(name), room, spectator,
                                                    token_, b.CreateVector(pad));
        net::PacketBuilder p(b);
        p.add_protocol(protocol);
        p.add_body_type(net::Body::ConnectRequest);
        p.add_body(body.Union());
        net::FinishPacketBuffer(b, p.Finish());
        send_raw({b.GetBufferPointer(), b.GetSize()});
    }

    // Padded to kConnectRequestMinBytes unless told otherwise, as Connection does.
    void respond(const std::string& name, std::uint64_t cookie, std::int32_t room = -1,
                 bool spectator = false,
                 std::size_t min_bytes = protocol::kConnectRequestMinBytes) {
        std::size_t padding = 0;
        for (;;) {
            flatbuffers::FlatBufferBuilder b;
            const std::vector<std::uint8_t> pad(padding, 0);
            const auto body = net::CreateConnectResponse(b, b.CreateString(name), room, spectator,
                                                         token_, cookie, b.CreateVector(pad));
            const auto bytes =
                protocol::finish_packet(b, 0, net::Body::ConnectResponse, body.Union());
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
            secret_ = reply->body_as_Accepted()->session_secret();
        }
        return reply;
    }

    void input(std::span<const std::pair<std::uint32_t, std::uint8_t>> commands,
               std::uint64_t ack = 0) {
        flatbuffers::FlatBufferBuilder b;
        std::vector<net::InputCommand> cmds;
        for (const auto& [seq, bits] : commands)
            cmds.emplace_back(seq, bits);
        const auto body = net::CreateClientInput(b, b.CreateVectorOfStructs(cmds), ack, 0);
        send_raw(
            protocol::finish_packet(b, client_id_, net::Body::ClientInput, body.Union(), secret_));
    }

    void keep_alive(std::uint32_t ping_id = 0) {
        flatbuffers::FlatBufferBuilder b;
        const auto body = net::CreateKeepAlive(b, ping_id);
        send_raw(
            protocol::finish_packet(b, client_id_, net::Body::KeepAlive, body.Union(), secret_));
    }

    void disconnect() {
        flatbuffers::FlatBufferBuilder b;
        const auto body = net::CreateDisconnect(b, net::DisconnectReason::quit);
        send_raw(
            protocol::finish_packet(b, client_id_, net::Body::Disconnect, body.Union(), secret_));
    }

    // The oldest datagram the server sent here, or null. It stays valid until the next call.
    const net::Packet* next() {
        auto& q = link_.inbox[at_];
        if (q.empty()) return nullptr;
        current_ = std::move(q.front());
        q.pop_front();
        return current_.packet();
    }
    // The newest packet of this type, dropping everything before it.
    const net::Packet* newest(net::Body type) {
        const net::Packet* found = nullptr;
        std::vector<Datagram> kept;
        auto& q = link_.inbox[at_];
        while (!q.empty()) {
            Datagram d = std::move(q.front());
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
    // The session secret from Accepted, sent on inputs, keep-alives and disconnects.
    std::uint64_t secret() const { return secret_; }
    void set_secret(std::uint64_t secret) { secret_ = secret; }
    Endpoint at() const { return at_; }
    void move_to(Endpoint e) { at_ = e; }

  private:
    Server& server_;
    Link& link_;
    Endpoint at_;
    std::uint64_t token_;
    std::uint32_t client_id_ = 0;
    std::uint64_t secret_ = 0;
    Datagram current_;
};

}  // namespace carom::server::test
