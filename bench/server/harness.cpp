#include "server/harness.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::bench {

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5)];
}

std::filesystem::path arena_map() {
    const std::filesystem::path relative = "shared/game/maps/arena.json";
    if (std::filesystem::exists(relative)) return relative;
    return std::filesystem::path(CAROM_SOURCE_DIR) / relative;
}

server::ServerConfig bench_config(std::uint32_t clients) {
    server::ServerConfig c;
    c.maps = {arena_map()};
    c.rooms = (clients + 7) / 8;
    c.max_clients = clients + 8;
    // Every bench client is on 127.0.0.1, and they all connect at once.
    c.max_sessions_per_ip = clients + 8;
    c.handshake_replies_per_ip_s = 4 * (clients + 8);
    c.timeout_s = 3600;
    return c;
}

std::uint8_t scripted_input(std::uint32_t client, std::uint32_t sequence) {
    const auto direction = static_cast<std::uint8_t>((client * 5 + sequence / 30) % 16);
    return game::Input::move(direction, (sequence + client) % 45 == 0).bits();
}

void CountingTransport::send(const server::Endpoint& to, std::span<const std::uint8_t> datagram) {
    const auto seal = seals.find(to);
    protocol::DatagramBuffer buffer{};
    const auto inner = opened(datagram, seal == seals.end() ? nullptr : seal->second.get(), buffer);
    last[to].assign(inner.begin(), inner.end());
    Traffic& t = by_client[to];
    ++t.datagrams;
    t.bytes += datagram.size();
    if (const auto tick = update_tick(last[to], t.newest_update)) {
        t.newest_update = std::max(t.newest_update, *tick);
        sizes.push_back(static_cast<std::uint16_t>(datagram.size()));
    }
}

std::optional<std::uint64_t> update_tick(std::span<const std::uint8_t> datagram,
                                         std::uint64_t reference) {
    switch (protocol::classify(datagram)) {
        case protocol::DatagramKind::server_update:
            if (const auto u = protocol::verify_server_update(datagram))
                return protocol::extend16((*u)->head()->tick(), reference);
            return std::nullopt;
        case protocol::DatagramKind::packet:
            if (const auto p = protocol::verify_packet(datagram); p && (*p)->body_as_FullState())
                return (*p)->body_as_FullState()->tick();
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

std::span<const std::uint8_t> opened(std::span<const std::uint8_t> datagram,
                                     protocol::SessionSeal* seal,
                                     protocol::DatagramBuffer& buffer) {
    if (seal == nullptr || !protocol::is_sealed(datagram)) return datagram;
    protocol::SealRefusal refused{};
    return seal->open(datagram, buffer, refused);
}

std::span<const std::uint8_t> connect_request(flatbuffers::FlatBufferBuilder& b,
                                              const InProcessClient& c) {
    b.Clear();
    const std::vector<std::uint8_t> pad(protocol::kConnectRequestMinBytes, 0);
    const auto body = net::CreateConnectRequest(b, b.CreateString(fmt::format("c{}", c.index)), -1,
                                                false, b.CreateVector(pad), c.nonce);
    return protocol::finish_packet(b, 0, net::Body::ConnectRequest, body.Union());
}

std::span<const std::uint8_t> connect_response(flatbuffers::FlatBufferBuilder& b,
                                               InProcessClient& c,
                                               const net::Challenge& challenge) {
    const auto* key = challenge.server_key();
    const auto keys = protocol::client_session_keys(
        c.keys, key != nullptr ? std::span<const std::uint8_t>(key->data(), key->size())
                               : std::span<const std::uint8_t>{});
    if (!keys) throw std::runtime_error("bench client: the server's key is refused");
    c.seal = std::make_shared<protocol::SessionSeal>(*keys);
    std::array<std::uint8_t, protocol::kHelloBytes> token{};
    token[0] = static_cast<std::uint8_t>(c.index + 1);
    token[1] = static_cast<std::uint8_t>((c.index + 1) >> 8);
    const std::vector<std::uint8_t> hello = c.seal->seal_hello(token);
    b.Clear();
    // Padded like the request: the server answers no shorter response (protocol 4).
    const std::vector<std::uint8_t> pad(protocol::kConnectRequestMinBytes, 0);
    const auto body = net::CreateConnectResponse(
        b, b.CreateString(fmt::format("c{}", c.index)), -1, false, challenge.cookie(),
        b.CreateVector(pad), c.nonce,
        b.CreateVector(c.keys.public_key.data(), c.keys.public_key.size()), b.CreateVector(hello));
    return protocol::finish_packet(b, 0, net::Body::ConnectResponse, body.Union());
}

std::vector<InProcessClient> connect_clients(server::Server& server, CountingTransport& link,
                                             std::uint32_t count) {
    std::vector<InProcessClient> clients;
    flatbuffers::FlatBufferBuilder b;
    for (std::uint32_t i = 0; i < count; ++i) {
        InProcessClient c;
        c.index = i;
        c.at.address[10] = c.at.address[11] = 0xFF;
        c.at.address[12] = 127;
        c.at.address[14] = static_cast<std::uint8_t>(i >> 8);
        c.at.address[15] = static_cast<std::uint8_t>(i & 0xFF);
        c.at.port = 40000;
        server.receive(c.at, connect_request(b, c));
        const auto challenge = protocol::verify_packet(link.last[c.at]);
        if (!challenge || (*challenge)->body_type() != net::Body::Challenge)
            throw std::runtime_error("bench client got no challenge");
        flatbuffers::FlatBufferBuilder r;
        const auto response = connect_response(r, c, *(*challenge)->body_as_Challenge());
        link.seals[c.at] = c.seal;
        server.receive(c.at, response);
        const auto accepted = protocol::verify_packet(link.last[c.at]);
        if (!accepted || (*accepted)->body_type() != net::Body::Accepted)
            throw std::runtime_error(fmt::format("bench client {} was not accepted", i));
        c.id = (*accepted)->body_as_Accepted()->client_id();
        clients.push_back(c);
    }
    return clients;
}

std::span<const std::uint8_t> next_input(flatbuffers::FlatBufferBuilder& b, InProcessClient& c,
                                         std::uint32_t redundancy, std::uint64_t ack) {
    ++c.sequence;
    protocol::ClientReport r;
    const std::uint32_t first = c.sequence > redundancy ? c.sequence - redundancy + 1 : 1;
    for (std::uint32_t s = first; s <= c.sequence; ++s)
        r.inputs.push_back(game::Input::from_bits(scripted_input(c.index, s)));
    r.sequence = c.sequence;
    if (ack != 0) r.ack = ack;
    thread_local protocol::DatagramBuffer sealed{};
    return c.seal->seal(protocol::encode_client_report(b, r), sealed);
}

}  // namespace carom::bench
