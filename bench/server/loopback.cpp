#include "server/loopback.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "carom/protocol/packet.hpp"

namespace carom::bench {
namespace {

// The Packet in a datagram, when it is one.
const net::Packet* packet_of(std::span<const std::uint8_t> datagram) {
    if (protocol::classify(datagram) != protocol::DatagramKind::packet) return nullptr;
    const auto p = protocol::verify_packet(datagram);
    return p ? *p : nullptr;
}

}  // namespace

void poll(asio::io_context& io) {
    if (io.stopped()) io.restart();
    io.poll();
}

void open_loopback(asio::ip::udp::socket& socket, const asio::ip::udp::endpoint& server) {
    socket.open(asio::ip::udp::v4());
    socket.bind({asio::ip::make_address("127.0.0.1"), 0});
    socket.connect(server);
    socket.non_blocking(true);
}

InProcessClient connect_socket(asio::io_context& io, asio::ip::udp::socket& socket,
                               const asio::ip::udp::endpoint& server, std::uint32_t index) {
    open_loopback(socket, server);
    flatbuffers::FlatBufferBuilder b;
    InProcessClient accepted;
    accepted.index = index;
    const auto request = connect_request(b, accepted);
    socket.send(asio::buffer(request.data(), request.size()));
    poll(io);
    std::vector<std::uint8_t> response;
    drain(socket, [&](std::span<const std::uint8_t> d) {
        if (const net::Packet* p = packet_of(d); p && p->body_as_Challenge()) {
            flatbuffers::FlatBufferBuilder r;
            const auto bytes = connect_response(r, accepted, *p->body_as_Challenge());
            response.assign(bytes.begin(), bytes.end());
        }
    });
    socket.send(asio::buffer(response.data(), response.size()));
    poll(io);
    drain(socket, [&](std::span<const std::uint8_t> d) {
        protocol::DatagramBuffer buffer{};
        if (const net::Packet* p = packet_of(opened(d, accepted.seal.get(), buffer));
            p && p->body_as_Accepted())
            accepted.id = p->body_as_Accepted()->client_id();
    });
    if (accepted.id == 0)
        throw std::runtime_error(fmt::format("bench client {} not accepted", index));
    return accepted;
}

}  // namespace carom::bench
