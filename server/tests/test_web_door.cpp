// carom-server's WebSocket door (/ws on the --http port) against a real
// server process: a browser's session is a session like any other (the
// handshake, the map transfer, the exact copy, the rooms), and whatever a
// peer does wrong at the door is refused, counted, and costs the tick
// nothing.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "carom/client/connection.hpp"
#include "prometheus_sample.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t now_ms() {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch())
            .count());
}

// GET over plain HTTP with Beast's client: the status and the body.
std::pair<unsigned, std::string> get(std::uint16_t port, const std::string& target) {
    namespace beast = boost::beast;
    namespace http = beast::http;
    boost::asio::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(5));
    stream.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    return {res.result_int(), res.body()};
}

std::string metrics(const carom::test::ServerProcess& server) {
    return get(server.http_port(), "/metrics").second;
}

// carom's own sans-IO client over a WebSocket: what the browser's page runs.
struct WebPlayer {
    WebPlayer(std::uint16_t port, const std::string& name, bool spectator = false)
        : ws(port, {.origin = "http://127.0.0.1:" + std::to_string(port)}),
          connection(config(name, spectator),
                     [this](std::span<const std::uint8_t> bytes) { ws.send(bytes); }) {}

    static carom::client::ConnectionConfig config(const std::string& name, bool spectator) {
        carom::client::ConnectionConfig c;
        c.name = name;
        c.spectator = spectator;
        c.token = 0x5eed0000u + name.size();
        return c;
    }

    // Runs the client for `ms`: updates, inputs once connected, every message in.
    void run_for(int ms, bool read = true) {
        const auto until = Clock::now() + std::chrono::milliseconds(ms);
        while (Clock::now() < until) {
            connection.update(now_ms());
            if (connection.state() == carom::client::State::connected) {
                if (!fetching) {
                    fetching = true;
                    connection.fetch_map(now_ms());
                }
                if (connection.replica() != nullptr && connection.replica()->holds())
                    connection.send_input(carom::game::Input::idle(), now_ms());
            }
            if (!read) {
                std::this_thread::sleep_for(std::chrono::milliseconds(16));
                continue;
            }
            while (auto message = ws.receive(std::chrono::milliseconds(4)))
                connection.on_datagram(*message, now_ms());
        }
    }

    carom::test::WsClient ws;
    carom::client::Connection connection;
    bool fetching = false;
};

}  // namespace

TEST_CASE("a browser's session over /ws joins, fetches the map and holds the server's match") {
    carom::test::ServerProcess server({"--http", "127.0.0.1:0", "--bots", "--rooms", "2"});
    WebPlayer ann(server.http_port(), "ann");
    ann.connection.connect(now_ms());
    ann.run_for(3000);

    REQUIRE(ann.connection.state() == carom::client::State::connected);
    REQUIRE(ann.connection.replica() != nullptr);
    CHECK(ann.connection.replica()->holds());
    const carom::client::ConnectionStats& st = ann.connection.stats();
    CHECK(st.updates > 60);  // 60 Hz for most of 3 s
    CHECK(st.hash_mismatches == 0);
    CHECK(st.resyncs == 0);
    CHECK(ann.connection.admission().slot >= 0);

    const std::string text = metrics(server);
    CHECK(carom::test::sample(text, "carom_websockets_opened_total") == 1);
    CHECK(carom::test::sample(text, "carom_clients") == 1);
    CHECK(carom::test::sample(text, "carom_players") == 1);
    CHECK(carom::test::sample(text, "carom_map_transfers_completed_total") == 1);
    CHECK(carom::test::sample(text, "carom_websocket_messages_received_total") > 60);
    CHECK(carom::test::sample(text, "carom_websocket_messages_sent_total") > 60);

    // A clean leave reaches the server over the same link.
    ann.connection.disconnect(now_ms());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(carom::test::sample(metrics(server), "carom_clients") == 0);
}

TEST_CASE("text, oversized and foreign-origin WebSockets are refused and counted") {
    carom::test::ServerProcess server({"--http", "127.0.0.1:0"});
    const std::uint16_t port = server.http_port();
    {
        carom::test::WsClient ws(port);
        ws.send_text("hello");
        CHECK_FALSE(ws.receive(std::chrono::milliseconds(2000)));
        CHECK(ws.closed());
        CHECK(ws.close_code() == 1003);  // unsupported data
    }
    {
        carom::test::WsClient ws(port);
        ws.send(std::vector<std::uint8_t>(1201, 0x42));  // a datagram is at most 1200 bytes
        CHECK_FALSE(ws.receive(std::chrono::milliseconds(2000)));
        CHECK(ws.closed());
        CHECK(ws.close_code() == 1009);  // too big
    }
    CHECK_THROWS(carom::test::WsClient(port, {.origin = "https://evil.example"}));
    // A plain GET of /ws, and the page's files only by plain name.
    CHECK(get(port, "/ws").first == 426);
    CHECK(get(port, "/../ready.json").first == 404);
    CHECK(get(port, "/metrics?x=1").first == 200);

    const std::string text = metrics(server);
    CHECK(carom::test::sample(text, "carom_websockets_refused_text_total") == 1);
    CHECK(carom::test::sample(text, "carom_websockets_refused_oversize_total") == 1);
    CHECK(carom::test::sample(text, "carom_websockets_refused_origin_total") == 1);
    CHECK(carom::test::sample(text, "carom_web_bad_requests_total") >= 1);
    CHECK(get(port, "/healthz").first == 200);
}

TEST_CASE(
    "an allowed --ws-origin opens /ws, and a flood of connections is held to the per-IP limit") {
    carom::test::ServerProcess server(
        {"--http", "127.0.0.1:0", "--ws-origin", "https://play.example.org"});
    const std::uint16_t port = server.http_port();
    CHECK_NOTHROW(carom::test::WsClient(port, {.origin = "https://play.example.org"}));

    std::vector<std::unique_ptr<carom::test::WsClient>> open;
    int refused = 0;
    for (int i = 0; i < 40; ++i) {
        try {
            open.push_back(std::make_unique<carom::test::WsClient>(port));
        } catch (const std::exception&) {
            ++refused;
        }
    }
    CHECK(open.size() == 32);  // the door's default per address
    CHECK(refused == 8);
    open.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(carom::test::sample(metrics(server), "carom_web_refused_per_ip_total") == 8);
}

TEST_CASE("a browser that never reads is dropped, and the tick goes on") {
    carom::test::ServerProcess server({"--http", "127.0.0.1:0", "--bots", "--ws-send-queue", "16"});
    carom::test::WsClient ws(server.http_port(),
                             {.origin = "", .tls = false, .receive_buffer_bytes = 4096});
    carom::client::Connection c(WebPlayer::config("slow", false),
                                [&ws](std::span<const std::uint8_t> b) { ws.send(b); });
    c.connect(now_ms());
    const auto joined = Clock::now() + std::chrono::seconds(3);
    while (c.state() != carom::client::State::connected && Clock::now() < joined) {
        c.update(now_ms());
        while (auto m = ws.receive(std::chrono::milliseconds(4)))
            c.on_datagram(*m, now_ms());
    }
    REQUIRE(c.state() == carom::client::State::connected);
    // Then it asks for every chunk of the map, again and again, and reads
    // nothing: once the kernel's buffers are full, the door's queue for it
    // (16 KiB here) overflows.
    const carom::client::Admission& a = c.admission();
    std::vector<std::uint32_t> all(carom::protocol::chunk_count(a.map_bytes));
    for (std::uint32_t i = 0; i < all.size(); ++i)
        all[i] = i;
    flatbuffers::FlatBufferBuilder b;
    const auto until = Clock::now() + std::chrono::seconds(10);
    double dropped = 0;
    bool reset = false;  // the server closed the link: sending fails
    while (Clock::now() < until && dropped < 1) {
        for (int i = 0; i < 10 && !reset; ++i) {
            b.Clear();
            const auto body = carom::net::CreateMapRequestDirect(b, a.map_hash, &all);
            try {
                ws.send(c.seal(carom::protocol::finish_packet(
                    b, a.client_id, carom::net::Body::MapRequest, body.Union())));
            } catch (const boost::system::system_error&) {
                reset = true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(16));
        }
        dropped = carom::test::sample(metrics(server), "carom_websockets_dropped_slow_total");
    }
    CHECK(dropped == 1);
    CHECK(get(server.http_port(), "/healthz").first == 200);
    // Its session is gone with the link: it times out as any silent one does.
}

TEST_CASE("with --tls-cert the port speaks HTTPS and wss://, and a session plays over it") {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("carom-tls-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string cert = (dir / "cert.pem").string(), key = (dir / "key.pem").string();
    const std::string make =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout " + key +
        " -out " + cert + " > /dev/null 2>&1";
    REQUIRE(std::system(make.c_str()) == 0);
    {
        carom::test::ServerProcess server(
            {"--http", "127.0.0.1:0", "--bots", "--tls-cert", cert, "--tls-key", key});
        carom::test::WsClient ws(server.http_port(),
                                 {.origin = "", .tls = true, .receive_buffer_bytes = 0});
        carom::client::Connection c(WebPlayer::config("tls", false),
                                    [&ws](std::span<const std::uint8_t> b) { ws.send(b); });
        c.connect(now_ms());
        bool fetching = false;
        const auto until = Clock::now() + std::chrono::seconds(3);
        while (Clock::now() < until) {
            c.update(now_ms());
            if (c.state() == carom::client::State::connected && !fetching) {
                fetching = true;
                c.fetch_map(now_ms());
            }
            while (auto m = ws.receive(std::chrono::milliseconds(4)))
                c.on_datagram(*m, now_ms());
        }
        CHECK(c.state() == carom::client::State::connected);
        REQUIRE(c.replica() != nullptr);
        CHECK(c.replica()->holds());
        CHECK(c.stats().hash_mismatches == 0);
        // Plain HTTP on a TLS port gets nothing.
        CHECK_THROWS(get(server.http_port(), "/healthz"));
    }
    std::filesystem::remove_all(dir);
}
