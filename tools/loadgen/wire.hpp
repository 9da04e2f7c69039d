#pragma once
// How one simulated client's datagrams reach the server: its own connected
// UDP socket, or a WebSocket to the server's /ws carrying one datagram per
// binary message, as the play page does. Both run on the load generator's
// one io_context (Boost.Asio: Beast's WebSocket needs it).
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>  // Boost 1.74's Asio uses std::exchange without it, under C++20
#include <vector>

#include <boost/asio.hpp>

#include "carom/result.hpp"

namespace carom::loadgen {

namespace asio = boost::asio;

class Wire {
  public:
    using Receiver = std::function<void(std::span<const std::uint8_t>)>;
    virtual ~Wire() = default;
    // Starts delivering what arrives to `receiver`, until close().
    virtual void start(Receiver receiver) = 0;
    // Sent now, or (a WebSocket still opening, or busy writing) as soon as it can be.
    virtual void send(std::span<const std::uint8_t> bytes) = 0;
    // What was sent goes out first (a WebSocket's close waits for its queue); then
    // nothing more is delivered.
    virtual void close() = 0;
    // Sends and receives that failed (a server not up yet shows here).
    virtual std::uint64_t errors() const = 0;
};

// Throws boost::system::system_error when the socket cannot be opened, bound
// to `source` (when given; any port) or connected.
std::unique_ptr<Wire> udp_wire(asio::io_context& io, const asio::ip::udp::endpoint& server,
                               std::optional<asio::ip::address> source);

// ws://HOST:PORT/PATH, as the load generator is given it.
struct WsUrl {
    std::string host;  // without brackets
    std::uint16_t port = 0;
    std::string path;  // "/ws"
    // The Host header's value: host:port, an IPv6 address in brackets.
    std::string authority() const;
};
// An error naming the text and the form when it is not ws://HOST:PORT/PATH
// (wss:// is refused: the load generator speaks no TLS).
Result<WsUrl> parse_ws_url(const std::string& text);

// Connects to `server` (from `source` when given) and upgrades at url.path;
// a refused connection is tried again until close(). Messages sent before
// the upgrade wait for it.
std::unique_ptr<Wire> ws_wire(asio::io_context& io, const asio::ip::tcp::endpoint& server,
                              std::optional<asio::ip::address> source, WsUrl url);

}  // namespace carom::loadgen
