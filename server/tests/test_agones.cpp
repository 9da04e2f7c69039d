// carom-server against a fake Agones SDK (the sidecar's local HTTP API, here
// an httplib server on 127.0.0.1): the calls and their order. Ready first,
// once listening; Health about every second while the tick loop runs and
// none while it is blocked (the SIGUSR2 test hook); the room and player
// labels; Shutdown last, after SIGTERM.
#include <doctest/doctest.h>
#include <httplib.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server_process.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Call {
    std::string what;  // "POST /health", "PUT /metadata/label {...}"
    Clock::time_point at;
};

class FakeSdk {
  public:
    FakeSdk() {
        const auto record = [this](const httplib::Request& req, httplib::Response& res) {
            std::string what = req.method + " " + req.path;
            if (req.path == "/metadata/label") what += " " + req.body;
            {
                const std::lock_guard lock(mutex_);
                calls_.push_back({what, Clock::now()});
            }
            res.set_content("{}", "application/json");
        };
        for (const char* path : {"/ready", "/health", "/shutdown"})
            http_.Post(path, record);
        http_.Put("/metadata/label", record);
        port_ = http_.bind_to_any_port("127.0.0.1");
        REQUIRE(port_ > 0);
        thread_ = std::thread([this] { http_.listen_after_bind(); });
        while (!http_.is_running())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ~FakeSdk() {
        http_.stop();
        thread_.join();
    }
    int port() const { return port_; }
    std::vector<Call> calls() const {
        const std::lock_guard lock(mutex_);
        return calls_;
    }

  private:
    httplib::Server http_;
    int port_ = 0;
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<Call> calls_;
};

std::size_t count(const std::vector<Call>& calls, const std::string& what, Clock::time_point from,
                  Clock::time_point to) {
    std::size_t n = 0;
    for (const Call& c : calls)
        if (c.what == what && c.at >= from && c.at <= to) ++n;
    return n;
}

}  // namespace

TEST_CASE("Agones: Ready, then Health while ticking, none while blocked, labels, Shutdown last") {
    FakeSdk sdk;
    const auto started = Clock::now();
    carom::test::ServerProcess server(
        {"--rooms", "2", "--stall-after", "0.5", "--test-stall-on-sigusr2", "3"},
        {"AGONES_SDK_HTTP_PORT=" + std::to_string(sdk.port())});
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));

    const auto blocked_at = Clock::now();
    server.signal(SIGUSR2);
    std::this_thread::sleep_for(std::chrono::milliseconds(5500));  // 3 s blocked, 2.5 s running
    const auto stopped_at = Clock::now();
    CHECK(server.stop(SIGTERM) == 0);

    const std::vector<Call> calls = sdk.calls();
    std::string seen;
    for (const Call& c : calls)
        seen += c.what + "\n";
    CAPTURE(seen);
    REQUIRE(calls.size() >= 4);
    CHECK(calls.front().what == "POST /ready");
    CHECK(count(calls, "POST /ready", started, stopped_at) == 1);
    CHECK(calls.back().what == "POST /shutdown");
    CHECK(count(calls, "POST /shutdown", started, Clock::now()) == 1);
    CHECK(count(calls, R"(PUT /metadata/label {"key":"rooms","value":"2"})", started, stopped_at) ==
          1);
    CHECK(count(calls, R"(PUT /metadata/label {"key":"players","value":"0"})", started,
                stopped_at) == 1);
    // About one a second while running: before the block and after it.
    CHECK(count(calls, "POST /health", started, blocked_at) >= 1);
    CHECK(count(calls, "POST /health", blocked_at + std::chrono::milliseconds(3200), stopped_at) >=
          1);
    // None once the block has lasted --stall-after, until it ends.
    CHECK(count(calls, "POST /health", blocked_at + std::chrono::milliseconds(700),
                blocked_at + std::chrono::milliseconds(2900)) == 0);
}

TEST_CASE("Agones: a malformed AGONES_SDK_HTTP_PORT is a usage error") {
    bool threw = false;
    try {
        carom::test::ServerProcess server({}, {"AGONES_SDK_HTTP_PORT=nine"});
    } catch (const std::runtime_error& e) {
        threw = true;
        CHECK(std::string(e.what()).find("AGONES_SDK_HTTP_PORT: 'nine' is not a port number") !=
              std::string::npos);
    }
    CHECK(threw);
}
