#include "agones.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <optional>

namespace carom::server {

AgonesClient::AgonesClient(const AgonesOptions& options, const Metrics& metrics)
    : options_(options), metrics_(metrics) {
    spdlog::info("agones: SDK at {}:{}", options_.host, options_.port);
    thread_ = std::thread([this] { run(); });
}

AgonesClient::~AgonesClient() {
    shutdown();
    if (thread_.joinable()) thread_.join();
}

void AgonesClient::ready() {
    const std::lock_guard lock(mutex_);
    want_ready_ = true;
    poked_ = true;
    wake_.notify_one();
}

void AgonesClient::shutdown() {
    const std::lock_guard lock(mutex_);
    want_shutdown_ = true;
    poked_ = true;
    wake_.notify_one();
}

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

// One request to the sidecar on a connection of its own (it is local and
// the calls are a second apart): the HTTP status, or the reason it failed.
Result<unsigned> post(const AgonesOptions& o, http::verb method, const std::string& path,
                      const std::string& body) {
    try {
        boost::asio::io_context io;
        beast::tcp_stream stream(io);
        stream.expires_after(std::chrono::milliseconds(500));
        stream.connect(tcp::resolver(io).resolve(o.host, std::to_string(o.port)));
        http::request<http::string_body> req{method, path, 11};
        req.set(http::field::host, o.host);
        req.set(http::field::content_type, "application/json");
        req.body() = body;
        req.prepare_payload();
        stream.expires_after(std::chrono::seconds(2));
        http::write(stream, req);
        beast::flat_buffer buffer;
        http::response<http::string_body> res;
        http::read(stream, buffer, res);
        beast::error_code ignored;
        stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
        return res.result_int();
    } catch (const boost::system::system_error& e) {
        return fail(e.code().message());
    }
}

}  // namespace

bool AgonesClient::call(const char* method, const std::string& path, const std::string& body) {
    const auto status = post(
        options_, std::string(method) == "PUT" ? http::verb::put : http::verb::post, path, body);
    const bool ok = status && *status == 200;
    if (!ok && failures_logged_++ < 10)  // a missing sidecar is said, not repeated forever
        spdlog::warn("agones: {} {} failed: {}", method, path,
                     status ? "HTTP " + std::to_string(*status) : status.error().message);
    return ok;
}

void AgonesClient::run() {
    bool ready_sent = false;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> labelled;  // rooms, players
    bool was_stalled = false;
    for (;;) {
        bool send_ready = false, send_shutdown = false;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, options_.health_interval, [this] { return poked_; });
            poked_ = false;
            send_ready = want_ready_ && !ready_sent;
            send_shutdown = want_shutdown_;
        }
        if (send_shutdown) {
            call("POST", "/shutdown", "{}");
            spdlog::info("agones: shutdown sent");
            return;
        }
        if (send_ready && call("POST", "/ready", "{}")) {
            ready_sent = true;
            spdlog::info("agones: ready");
        }
        // Health only while ticks run: a stalled loop must look unhealthy to Agones.
        const bool stalled = metrics_.stalled() || metrics_.draining();
        if (stalled != was_stalled)
            spdlog::warn("agones: {}", stalled ? "tick loop stalled: health pings stop"
                                               : "tick loop running again: health pings resume");
        was_stalled = stalled;
        if (!stalled && ready_sent) call("POST", "/health", "{}");
        const MetricsReading s = metrics_.read();
        const std::pair<std::uint64_t, std::uint64_t> now{s.rooms, s.players};
        if (ready_sent && labelled != now) {
            const bool rooms_ok =
                call("PUT", "/metadata/label",
                     R"({"key":"rooms","value":")" + std::to_string(s.rooms) + "\"}");
            const bool players_ok =
                call("PUT", "/metadata/label",
                     R"({"key":"players","value":")" + std::to_string(s.players) + "\"}");
            if (rooms_ok && players_ok) labelled = now;
        }
    }
}

}  // namespace carom::server
