#include "http_endpoint.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <sys/socket.h>

#include <charconv>
#include <chrono>
#include <stdexcept>

namespace carom::server {

Result<HttpAddress> parse_http_address(const std::string& text) {
    const auto refused = [&] {
        return fail("'" + text + "' is not ADDR:PORT (127.0.0.1:9100, [::1]:9100)");
    };
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) return refused();
    std::string host = text.substr(0, colon);
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']') return refused();
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string::npos) {
        return refused();  // an IPv6 address needs brackets
    }
    const std::string port_text = text.substr(colon + 1);
    unsigned port = 0;
    const auto [end, ec] =
        std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535 ||
        port_text.empty())
        return refused();
    return HttpAddress{host, static_cast<std::uint16_t>(port)};
}

HttpEndpoint::HttpEndpoint(const HttpAddress& address, const Metrics& metrics)
    : http_(std::make_unique<httplib::Server>()) {
    // Few scrapers, short answers: a small pool, so the tick thread keeps its core.
    // httplib's default adds SO_REUSEPORT, which would let a second server
    // share a metrics port silently: only SO_REUSEADDR (restarts), so a taken
    // port is an error.
    http_->set_socket_options([](int sock) {
        const int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    http_->new_task_queue = [] { return new httplib::ThreadPool(2); };
    http_->Get("/metrics", [&metrics](const httplib::Request&, httplib::Response& res) {
        res.set_content(metrics.prometheus_text(), "text/plain; version=0.0.4; charset=utf-8");
    });
    http_->Get("/healthz", [&metrics](const httplib::Request&, httplib::Response& res) {
        const double since = metrics.seconds_since_tick();
        if (metrics.draining()) {
            res.status = 503;
            res.set_content("draining: shutting down\n", "text/plain");
        } else if (metrics.stalled()) {
            res.status = 503;
            res.set_content(fmt::format("stalled: no tick for {:.1f} s (limit {:.1f} s)\n", since,
                                        metrics.stall_after().count()),
                            "text/plain");
        } else {
            res.set_content(fmt::format("ok: last tick {:.3f} s ago\n", since), "text/plain");
        }
    });
    if (address.port == 0) {
        const int port = http_->bind_to_any_port(address.host);
        if (port <= 0)
            throw std::runtime_error(fmt::format("cannot listen for HTTP on {}:0", address.host));
        port_ = static_cast<std::uint16_t>(port);
    } else {
        if (!http_->bind_to_port(address.host, address.port))
            throw std::runtime_error(
                fmt::format("cannot listen for HTTP on {}:{}", address.host, address.port));
        port_ = address.port;
    }
    thread_ = std::thread([this] {
        http_->listen_after_bind();
        finished_.store(true);
    });
}

HttpEndpoint::~HttpEndpoint() {
    // stop() only reaches a server that is already running: wait for it to be.
    for (int i = 0; i < 1000 && !http_->is_running() && !finished_.load(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    http_->stop();
    if (thread_.joinable()) thread_.join();
}

}  // namespace carom::server
