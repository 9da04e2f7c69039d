#pragma once
// The client's UDP socket (Asio), connected to the server and non-blocking:
// the main loop drains it and polls its descriptor, nothing waits on it.
// With simulate(), both directions cross a simulated link (linksim): sends
// wait in it until due, received datagrams too; drain() hands over those due
// and the loop wakes by next_due_us().
#include <asio.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "carom/client/host_port.hpp"
#include "carom/linksim/link_simulator.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::app {

class UdpLink {
  public:
    // Throws std::runtime_error naming the host when it does not resolve.
    UdpLink(asio::io_context& io, const client::HostPort& server);

    void simulate(const linksim::LinkSpec& spec, std::uint64_t up_seed, std::uint64_t down_seed,
                  std::function<std::int64_t()> now_us);
    void send(std::span<const std::uint8_t> bytes);
    // Sends what the simulated link still holds at once: on leaving, so the
    // server hears the Disconnect.
    void flush_simulated();
    // When the simulated link next has a datagram due (on the now_us clock).
    std::optional<std::int64_t> next_due_us() const;
    // Every datagram waiting (or due, when simulated), each handed to `on_datagram`.
    void drain(const std::function<void(std::span<const std::uint8_t>)>& on_datagram);
    int native_handle() { return socket_.native_handle(); }
    // Send and receive errors (a closed port shows up as "connection refused").
    std::uint64_t errors() const { return errors_; }

  private:
    void send_now(std::span<const std::uint8_t> bytes);

    asio::ip::udp::socket socket_;
    std::optional<linksim::LinkSimulator<>> up_, down_;
    std::function<std::int64_t()> now_us_;
    alignas(8) std::array<std::uint8_t, protocol::kMaxDatagramBytes + 8> buffer_{};
    std::uint64_t errors_ = 0;
};

}  // namespace carom::app
