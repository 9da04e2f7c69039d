#include "server/harness.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/proof.hpp"

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
    last[to].assign(datagram.begin(), datagram.end());
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

std::span<const std::uint8_t> connect_request(flatbuffers::FlatBufferBuilder& b,
                                              std::uint32_t index) {
    b.Clear();
    const std::vector<std::uint8_t> pad(protocol::kConnectRequestMinBytes, 0);
    const auto body = net::CreateConnectRequest(b, b.CreateString(fmt::format("c{}", index)), -1,
                                                false, index + 1, b.CreateVector(pad));
    return protocol::finish_packet(b, 0, net::Body::ConnectRequest, body.Union());
}

std::span<const std::uint8_t> connect_response(flatbuffers::FlatBufferBuilder& b,
                                               std::uint32_t index, std::uint64_t cookie) {
    b.Clear();
    // Padded like the request: the server answers no shorter response (protocol 4).
    const std::vector<std::uint8_t> pad(protocol::kConnectRequestMinBytes, 0);
    const auto body = net::CreateConnectResponse(b, b.CreateString(fmt::format("c{}", index)), -1,
                                                 false, index + 1, cookie, b.CreateVector(pad));
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
        server.receive(c.at, connect_request(b, i));
        const auto challenge = protocol::verify_packet(link.last[c.at]);
        if (!challenge || (*challenge)->body_type() != net::Body::Challenge)
            throw std::runtime_error("bench client got no challenge");
        server.receive(c.at, connect_response(b, i, (*challenge)->body_as_Challenge()->cookie()));
        const auto accepted = protocol::verify_packet(link.last[c.at]);
        if (!accepted || (*accepted)->body_type() != net::Body::Accepted)
            throw std::runtime_error(fmt::format("bench client {} was not accepted", i));
        c.id = (*accepted)->body_as_Accepted()->client_id();
        c.secret = (*accepted)->body_as_Accepted()->session_secret();
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
    r.proof = protocol::client_proof(c.secret, r.sequence, ack);
    return protocol::encode_client_report(b, r);
}

}  // namespace carom::bench
