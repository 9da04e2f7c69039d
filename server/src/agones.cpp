#include "agones.hpp"

#include <httplib.h>
#include <spdlog/spdlog.h>

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

bool AgonesClient::call(const char* method, const std::string& path, const std::string& body) {
    httplib::Client client(options_.host, options_.port);
    client.set_connection_timeout(std::chrono::milliseconds(500));
    client.set_read_timeout(std::chrono::seconds(2));
    client.set_write_timeout(std::chrono::seconds(2));
    const httplib::Result result = std::string(method) == "PUT"
                                       ? client.Put(path, body, "application/json")
                                       : client.Post(path, body, "application/json");
    const bool ok = result && result->status == 200;
    if (!ok && failures_logged_++ < 10)  // a missing sidecar is said, not repeated forever
        spdlog::warn(
            "agones: {} {} failed: {}", method, path,
            result ? "HTTP " + std::to_string(result->status) : httplib::to_string(result.error()));
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
