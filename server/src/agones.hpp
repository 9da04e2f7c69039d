#pragma once
// The Agones SDK's local HTTP API (the game server sidecar, on
// 127.0.0.1:AGONES_SDK_HTTP_PORT): Ready once the server listens, Health every
// second while the tick loop runs (none once it has stalled for
// Metrics::stall_after(), so Agones marks the GameServer Unhealthy), labels
// "rooms" and "players" when they change, Shutdown when the server drains.
// The calls run on their own thread, so a slow sidecar never delays a tick.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "carom/result.hpp"
#include "metrics.hpp"

namespace carom::server {

struct AgonesOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 9358;  // the SDK's default HTTP port
    std::chrono::milliseconds health_interval{1000};
};

class AgonesClient {
  public:
    AgonesClient(const AgonesOptions& options, const Metrics& metrics);
    ~AgonesClient();  // sends Shutdown if shutdown() was not called, then joins
    AgonesClient(const AgonesClient&) = delete;
    AgonesClient& operator=(const AgonesClient&) = delete;

    void ready();     // the server listens
    void shutdown();  // the server has drained: Shutdown, then the thread ends

  private:
    void run();
    bool call(const char* method, const std::string& path, const std::string& body);

    AgonesOptions options_;
    const Metrics& metrics_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool want_ready_ = false;
    bool want_shutdown_ = false;
    bool poked_ = false;  // woken for a reason other than the health interval
    std::uint64_t failures_logged_ = 0;
    std::thread thread_;
};

}  // namespace carom::server
