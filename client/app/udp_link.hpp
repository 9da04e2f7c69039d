#pragma once
// The client's UDP socket (Asio), connected to the server and non-blocking:
// the main loop drains it and polls its descriptor, nothing waits on it.
#include <asio.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "carom/client/host_port.hpp"
#include "carom/protocol/net.hpp"

namespace carom::app {

class UdpLink {
  public:
    // Throws std::runtime_error naming the host when it does not resolve.
    UdpLink(asio::io_context& io, const client::HostPort& server);

    void send(std::span<const std::uint8_t> bytes);
    // Every datagram waiting, each handed to `on_datagram`.
    void drain(const std::function<void(std::span<const std::uint8_t>)>& on_datagram);
    int native_handle() { return socket_.native_handle(); }
    // Send and receive errors (a closed port shows up as "connection refused").
    std::uint64_t errors() const { return errors_; }

  private:
    asio::ip::udp::socket socket_;
    alignas(8) std::array<std::uint8_t, protocol::kMaxDatagramBytes + 8> buffer_{};
    std::uint64_t errors_ = 0;
};

}  // namespace carom::app
