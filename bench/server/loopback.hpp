#pragma once
// Bench clients on real loopback UDP sockets, driven from the server's own
// thread: the server's handlers run when polled, the clients read without
// blocking.
#include <array>
#include <asio.hpp>
#include <cstdint>
#include <span>
#include <system_error>

#include "server/harness.hpp"

namespace carom::bench {

// Runs the handlers that are ready (the server's receives) without blocking.
void poll(asio::io_context& io);

// Reads every datagram waiting on a client socket and hands each on.
template <class OnDatagram>
void drain(asio::ip::udp::socket& socket, OnDatagram&& on_datagram) {
    alignas(8) std::array<std::uint8_t, 2048> buffer{};
    std::error_code ec;
    for (;;) {
        const std::size_t got = socket.receive(asio::buffer(buffer), 0, ec);
        if (ec) break;
        on_datagram(std::span<const std::uint8_t>(buffer.data(), got));
    }
}

// Opens `socket` on 127.0.0.1, non-blocking, connected to `server`.
void open_loopback(asio::ip::udp::socket& socket, const asio::ip::udp::endpoint& server);

// A client socket on 127.0.0.1 that completes the handshake; its id and
// secret. Throws std::runtime_error if it is not accepted.
InProcessClient connect_socket(asio::io_context& io, asio::ip::udp::socket& socket,
                               const asio::ip::udp::endpoint& server, std::uint32_t index);

}  // namespace carom::bench
