#pragma once
// carom-server's HTTP side (--http ADDR:PORT): /metrics in Prometheus text
// format and /healthz, which answers 503 once the tick loop has not run for
// Metrics::stall_after() (or the server is draining). It runs on its own
// thread and reads only Metrics, never the Server (metrics.hpp).
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "carom/result.hpp"
#include "metrics.hpp"

namespace httplib {
class Server;
}

namespace carom::server {

struct HttpAddress {
    std::string host;  // without brackets
    std::uint16_t port = 0;
};
// "127.0.0.1:9100", "[::1]:9100", "0.0.0.0:0"; an error naming the text and
// the form when it is not of that form.
Result<HttpAddress> parse_http_address(const std::string& text);

class HttpEndpoint {
  public:
    // Binds at once; throws std::runtime_error naming the address when it cannot.
    HttpEndpoint(const HttpAddress& address, const Metrics& metrics);
    ~HttpEndpoint();  // stops serving and joins the thread
    HttpEndpoint(const HttpEndpoint&) = delete;
    HttpEndpoint& operator=(const HttpEndpoint&) = delete;
    std::uint16_t port() const { return port_; }

  private:
    std::unique_ptr<httplib::Server> http_;
    std::uint16_t port_ = 0;
    std::atomic<bool> finished_{false};
    std::thread thread_;
};

}  // namespace carom::server
