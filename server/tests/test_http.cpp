// carom-server's --http endpoint over real HTTP on 127.0.0.1: /metrics in
// Prometheus text format with live figures, /healthz failing while the tick
// thread is blocked (the test hook blocks it with SIGUSR2; the HTTP thread
// goes on answering) and passing again once it runs.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <string>
#include <thread>

#include "prometheus_sample.hpp"
#include "server_process.hpp"

namespace {

void send_junk(std::uint16_t port, int count) {
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const char junk[40] = "not a carom packet, just bytes";
    for (int i = 0; i < count; ++i)
        ::sendto(fd, junk, sizeof junk, 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
    ::close(fd);
}

httplib::Result get(std::uint16_t port, const char* path) {
    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(std::chrono::seconds(2));
    client.set_read_timeout(std::chrono::seconds(5));
    return client.Get(path);
}

}  // namespace

TEST_CASE("metrics are served in Prometheus text format with the server's live figures") {
    carom::test::ServerProcess server({"--rooms", "3", "--http", "127.0.0.1:0"});
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    send_junk(server.udp_port(), 5);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));  // > the 100 ms publication period

    const auto res = get(server.http_port(), "/metrics");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->get_header_value("Content-Type").starts_with("text/plain; version=0.0.4"));
    const std::string& text = res->body;
    CHECK(text.find("# TYPE carom_tick_duration_seconds histogram\n") != std::string::npos);
    CHECK(text.find("# TYPE carom_tick_lateness_seconds histogram\n") != std::string::npos);
    CHECK(carom::test::sample(text, "carom_tick_duration_seconds_count") >=
          10);  // 60 Hz for about 0.6 s
    CHECK(carom::test::sample(text, "carom_tick_duration_seconds_bucket{le=\"+Inf\"}") ==
          carom::test::sample(text, "carom_tick_duration_seconds_count"));
    CHECK(carom::test::sample(text, "carom_rooms") == 3);
    CHECK(carom::test::sample(text, "carom_clients") == 0);
    CHECK(carom::test::sample(text, "carom_packets_received_total") >= 5);
    CHECK(carom::test::sample(text, "carom_bytes_received_total") >= 5 * 40);
    CHECK(
        carom::test::sample(text, "carom_invalid_datagrams_total{reason=\"bad_identifier\"}") +
            carom::test::sample(text, "carom_invalid_datagrams_total{reason=\"too_short\"}") +
            carom::test::sample(text, "carom_invalid_datagrams_total{reason=\"malformed\"}") +
            carom::test::sample(text, "carom_invalid_datagrams_total{reason=\"unknown_sender\"}") >=
        5);
    for (const char* name : {"carom_packets_sent_total", "carom_bytes_sent_total",
                             "carom_replay_write_errors_total", "carom_matches_finished_total",
                             "carom_ticks_dropped_total", "carom_seconds_since_tick"}) {
        CAPTURE(name);
        CHECK(carom::test::sample(text, name) >= 0);
    }
    const auto health = get(server.http_port(), "/healthz");
    REQUIRE(health);
    CHECK(health->status == 200);
    CHECK(server.stop(SIGTERM) == 0);
}

TEST_CASE("healthz fails while the tick thread is blocked and passes once it runs again") {
    carom::test::ServerProcess server(
        {"--http", "127.0.0.1:0", "--stall-after", "0.5", "--test-stall-on-sigusr2", "2.5"});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto res = get(server.http_port(), "/healthz");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->body.starts_with("ok"));

    const auto blocked_at = std::chrono::steady_clock::now();
    server.signal(SIGUSR2);
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    res = get(server.http_port(), "/healthz");
    REQUIRE(res);
    CHECK(res->status == 503);
    CHECK(res->body.starts_with("stalled: no tick for"));
    const auto metrics = get(server.http_port(), "/metrics");  // the HTTP thread still answers
    REQUIRE(metrics);
    CHECK(carom::test::sample(metrics->body, "carom_seconds_since_tick") > 0.5);

    std::this_thread::sleep_until(blocked_at + std::chrono::milliseconds(3500));
    res = get(server.http_port(), "/healthz");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(server.stop(SIGTERM) == 0);
}

TEST_CASE("an HTTP address that cannot be bound stops the start with exit 1") {
    httplib::Server taken;
    const int port = taken.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    bool threw = false;
    try {
        carom::test::ServerProcess server({"--http", "127.0.0.1:" + std::to_string(port)});
    } catch (const std::runtime_error& e) {
        threw = true;
        CHECK(std::string(e.what()).find("cannot listen for HTTP on 127.0.0.1:") !=
              std::string::npos);
    }
    CHECK(threw);
}
