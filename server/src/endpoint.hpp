#pragma once
// A peer as the server logic sees it: its address as bytes, not an Asio
// type, so the logic (and its tests) never touch the socket library; and the
// door it came in by: the UDP socket, or one WebSocket connection.
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>

namespace carom::server {

struct Endpoint {
    // IPv4 addresses are stored IPv4-mapped (::ffff:a.b.c.d), as a dual-stack socket reports them.
    std::array<std::uint8_t, 16> address{};
    std::uint16_t port = 0;
    // 0: the UDP socket. Else the WebSocket connection's number (web_door.hpp),
    // never reused while the server runs: a new connection from the same
    // address and port is another peer.
    std::uint32_t link = 0;

    friend auto operator<=>(const Endpoint&, const Endpoint&) = default;
    friend bool operator==(const Endpoint&, const Endpoint&) = default;
    std::string to_string() const;
};

// For the server's lookup of a session by address, done for every datagram.
// Nothing iterates the hashed table, so its order never matters.
struct EndpointHash {
    std::size_t operator()(const Endpoint& e) const noexcept;
};

}  // namespace carom::server
