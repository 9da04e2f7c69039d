#pragma once
// carom-server's HTTP port (--http ADDR:PORT), one Boost.Beast stack on a
// thread of its own:
//   /metrics, /healthz   for the operator (Prometheus text; 503 once the
//                        tick has stalled or the server drains);
//   /                    the play page and its files, from the page directory;
//   /ws                  a WebSocket on which a browser speaks the UDP
//                        protocol, one binary message per datagram: its
//                        sessions are sessions like any other.
// HTTPS and wss:// with --tls-cert/--tls-key. Nothing here reads the Server:
// the tick thread drains the messages that came in (Door) and reads only
// Metrics, so a slow peer, a TLS handshake or a scrape never takes a tick's
// time, and /healthz answers while the tick thread is stuck.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "carom/result.hpp"
#include "door.hpp"
#include "metrics.hpp"

namespace carom::server {

struct HttpAddress {
    std::string host;  // without brackets
    std::uint16_t port = 0;
};
// "127.0.0.1:9100", "[::1]:9100", "0.0.0.0:0"; an error naming the text and
// the form when it is not of that form.
Result<HttpAddress> parse_http_address(const std::string& text);

struct WebDoorConfig {
    HttpAddress address;
    // The play page's files (play.html and what it loads); empty or missing:
    // `/` says the page is not installed, the rest works.
    std::filesystem::path page_dir;
    // Origins a browser may open /ws from ("https://play.example.org"), or
    // "*" for any. A request without Origin (not a browser) and one from the
    // server's own host:port are always let in.
    std::vector<std::string> origins;
    // Both or neither: the port speaks HTTPS (and wss://) only.
    std::filesystem::path tls_cert, tls_key;
    std::size_t max_connections = 1024;             // HTTP and WebSocket, open at once
    std::size_t max_connections_per_ip = 32;        // a browser opens a few per tab
    std::size_t max_send_queue_bytes = 256 * 1024;  // a peer that reads slower is dropped
    std::size_t max_waiting = 8192;                 // messages in, waiting for the tick
    std::size_t max_waiting_per_link = 128;         // of them, from one WebSocket
};

// Counted on the door's thread (and read anywhere): each refusal has its own.
struct WebDoorStats {
    std::atomic<std::uint64_t> http_requests{0};
    std::atomic<std::uint64_t> http_bad_requests{0};  // unparsable, too large, not GET
    std::atomic<std::uint64_t> http_not_found{0};
    std::atomic<std::uint64_t> refused_connections{0};  // over max_connections
    std::atomic<std::uint64_t> refused_per_ip{0};       // over max_connections_per_ip
    std::atomic<std::uint64_t> tls_handshakes_failed{0};
    std::atomic<std::uint64_t> ws_opened{0};
    std::atomic<std::uint64_t> ws_closed{0};
    std::atomic<std::uint64_t> ws_refused_origin{0};
    std::atomic<std::uint64_t> ws_refused_text{0};      // a text message: closed 1003
    std::atomic<std::uint64_t> ws_refused_oversize{0};  // over a datagram: closed 1009
    std::atomic<std::uint64_t> ws_dropped_slow{0};      // its send queue overflowed
    std::atomic<std::uint64_t> ws_messages_in{0}, ws_bytes_in{0};
    std::atomic<std::uint64_t> ws_messages_out{0}, ws_bytes_out{0};
    std::atomic<std::uint64_t> ws_waiting_dropped{0};  // in, past max_waiting(_per_link)
};

class WebDoor final : public Door {
  public:
    // Binds and starts serving. Throws std::runtime_error naming the address
    // (or the certificate file) when it cannot.
    WebDoor(const WebDoorConfig& config, const Metrics& metrics);
    ~WebDoor() override;  // closes every connection and joins the thread
    WebDoor(const WebDoor&) = delete;
    WebDoor& operator=(const WebDoor&) = delete;

    std::uint16_t port() const;
    bool tls() const;
    const WebDoorStats& stats() const;
    // The door's counters in Prometheus text format (for /metrics).
    std::string prometheus_text() const;

    std::size_t drain(std::size_t budget, const Handler& handler) override;
    void send(const Endpoint& to, std::span<const std::uint8_t> datagram) override;
    void hand_over() override;
    void start_delivery() override;
    void set_wake(std::function<void()> wake) override;
    std::uint64_t send_errors() const override;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace carom::server
