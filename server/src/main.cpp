// carom-server: hosts matches over UDP until SIGINT/SIGTERM.
#include <fmt/ranges.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "carom/cli/cli.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/protocol/connect_token.hpp"

#include "agones.hpp"
#include "log_format.hpp"
#include "metrics.hpp"
#include "udp_host.hpp"
#include "web_door.hpp"

namespace {

using namespace carom::server;

// Exit codes: 0 clean shutdown, 1 could not start (socket, maps, replay dir), 2 bad arguments
// (or standard error could not be written).
constexpr int kExitCannotStart = 1;

// What the command line and the environment say.
struct Options {
    ServerConfig config;  // but its maps (found from `maps`) and delta_updates (`no_delta`)
    HostOptions host;
    std::string bind = "::";
    std::uint16_t port = 27960;
    int socket_buffer_bytes = UdpTransport::kSocketBufferBytes;
    std::string log_level = "info";
    std::vector<std::string> maps = {"arena"};
    bool no_delta = false;
    std::string log_format = "text";
    std::string http_address;
    WebDoorConfig web;  // but its address (http_address) and send queue (below)
    std::size_t ws_send_queue_kib = WebDoorConfig{}.max_send_queue_bytes / 1024;
    double stall_after_s = 2.0;
    bool use_agones = false;
    AgonesOptions agones;
    double test_stall_s = 0.0;
    std::string token_key_file;
};

std::string run_id_now() {
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char out[32];
    std::strftime(out, sizeof out, "%Y%m%d-%H%M%S", &utc);
    return out;
}

// Where the server listens.
void add_socket_options(CLI::App& app, Options& o) {
    app.add_option("--bind", o.bind, "Address to listen on (:: = IPv6 and IPv4)")
        ->envname("CAROM_BIND")
        ->capture_default_str();
    app.add_option("--port", o.port, "UDP port (0: any free port, see --ready-file)")
        ->envname("CAROM_PORT")
        ->capture_default_str();
    app.add_option("--socket-buffer", o.socket_buffer_bytes,
                   "Socket receive and send buffer bytes asked for (capped by "
                   "net.core.rmem_max/wmem_max)")
        ->envname("CAROM_SOCKET_BUFFER")
        ->check(carom::cli::finite(4096, 1 << 30))
        ->capture_default_str();
}

// The rooms, who may join them, how clients are served, and the replays.
void add_server_options(CLI::App& app, Options& o) {
    ServerConfig& config = o.config;
    app.add_option("--map", o.maps,
                   "Map names or files (JSON, or HaxBall stadiums *.hbs; comma-separated too), "
                   "assigned to rooms in turn")
        ->delimiter(',')
        ->envname("CAROM_MAP")
        ->capture_default_str();
    app.add_option("--name", config.name,
                   "The server's name in status replies (carom-client --list): 1 to 64 "
                   "printable ASCII characters")
        ->envname("CAROM_NAME")
        ->check(CLI::Validator(
            [](const std::string& name) {
                const bool printable = std::all_of(name.begin(), name.end(),
                                                   [](char c) { return c >= 0x20 && c <= 0x7E; });
                return !name.empty() && name.size() <= 64 && printable
                           ? std::string()
                           : std::string("1 to 64 printable ASCII characters");
            },
            "NAME"))
        ->capture_default_str();
    app.add_option("--map-send-rate", config.map_chunks_per_session_tick,
                   "Map transfer: KiB a tick (60 a second) to one client")
        ->envname("CAROM_MAP_SEND_RATE")
        ->check(carom::cli::finite(1, 1024))
        ->capture_default_str();
    app.add_option("--map-send-cap", config.map_chunks_per_tick,
                   "Map transfer: KiB a tick to all clients together")
        ->envname("CAROM_MAP_SEND_CAP")
        ->check(carom::cli::finite(1, 65536))
        ->capture_default_str();
    app.add_option("--rooms", config.rooms, "Matches run by this process")
        ->envname("CAROM_ROOMS")
        ->check(carom::cli::finite(1, 4096))
        ->capture_default_str();
    app.add_option("--max-clients", config.max_clients, "Players and spectators, all rooms")
        ->envname("CAROM_MAX_CLIENTS")
        ->check(carom::cli::finite(1, 1 << 20))
        ->capture_default_str();
    app.add_option("--max-sessions-per-ip", config.max_sessions_per_ip,
                   "Sessions from one source IP (any port); more are denied")
        ->envname("CAROM_MAX_SESSIONS_PER_IP")
        ->check(carom::cli::finite(1, 1 << 20))
        ->capture_default_str();
    app.add_option("--handshake-rate", config.handshake_replies_per_ip_s,
                   "Handshake replies per source IP per second")
        ->envname("CAROM_HANDSHAKE_RATE")
        ->check(carom::cli::finite(1, 1 << 20))
        ->capture_default_str();
    app.add_option("--max-spectators", config.max_spectators_per_room, "Spectators per room")
        ->envname("CAROM_MAX_SPECTATORS")
        ->check(carom::cli::finite(0, 1024))
        ->capture_default_str();
    app.add_flag("--bots", config.bots, "Fill empty player slots with server-side bots")
        ->envname("CAROM_BOTS");
    app.add_flag("--run-empty-rooms", config.run_empty_rooms,
                 "Rooms nobody is in play on, bots and recording included (soak tests, "
                 "recording bot matches); otherwise they sleep until someone joins")
        ->envname("CAROM_RUN_EMPTY_ROOMS");
    app.add_option("--update-rate,--snapshot-rate", config.update_rate_hz,
                   "Updates per client per second (divides 60)")
        ->envname("CAROM_UPDATE_RATE")
        ->check(CLI::IsMember({1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60}))
        ->capture_default_str();
    app.add_option("--input-redundancy", config.input_redundancy,
                   "Inputs a client packet carries at most (K)")
        ->envname("CAROM_INPUT_REDUNDANCY")
        ->check(carom::cli::finite(1, carom::protocol::kMaxInputRedundancy))
        ->capture_default_str();
    app.add_flag("--no-delta", o.no_delta, "Always send full states, never updates")
        ->envname("CAROM_NO_DELTA");
    app.add_option("--timeout", config.timeout_s, "Seconds of silence before a client times out")
        ->envname("CAROM_TIMEOUT")
        ->check(carom::cli::finite(0.1, 3600))
        ->capture_default_str();
    app.add_option("--grace", config.grace_s, "Seconds a timed-out player's slot is kept")
        ->envname("CAROM_GRACE")
        ->check(carom::cli::finite(0, 3600))
        ->capture_default_str();
    app.add_option("--final-pause", config.final_pause_s,
                   "Seconds a finished match stays on screen (phase finished) before the next")
        ->envname("CAROM_FINAL_PAUSE")
        ->check(carom::cli::finite(0, 600))
        ->capture_default_str();
    app.add_option("--replay-dir", config.replay_dir, "Record every match here (empty: no replays)")
        ->envname("CAROM_REPLAY_DIR");
    app.add_option("--replay-keep-days", config.replay_keep_days,
                   "Remove finished replays older than this many days (0: keep them)")
        ->envname("CAROM_REPLAY_KEEP_DAYS")
        ->check(carom::cli::finite(0, 36500))
        ->capture_default_str();
    app.add_option("--replay-max-bytes", config.replay_max_bytes,
                   "Remove the oldest finished replays while the directory holds more (0: no "
                   "limit)")
        ->envname("CAROM_REPLAY_MAX_BYTES")
        ->capture_default_str();
    app.add_option("--seed", config.seed, "Seed of the first matches")
        ->envname("CAROM_SEED")
        ->capture_default_str();
    app.add_option("--ban", config.banned_names, "Player names to refuse")->envname("CAROM_BAN");
    app.add_option("--ban-id", config.banned_ids,
                   "Player ids to refuse (connect tokens' --id; repeatable)")
        ->envname("CAROM_BAN_ID");
    app.add_option("--token-key", o.token_key_file,
                   "Admit only players with a connect token made with this key "
                   "(carom-token keygen; without it the server is open)")
        ->envname("CAROM_TOKEN_KEY");
    app.add_option("--public-address", config.token_servers,
                   "HOST:PORT by which tokens name this server (repeatable; default: the bound "
                   "address, which --bind :: or 0.0.0.0 does not give)")
        ->envname("CAROM_PUBLIC_ADDRESS");
}

// What the operator sees: stats, logs, HTTP, Agones.
void add_operator_options(CLI::App& app, Options& o) {
    app.add_option("--stats-interval", o.host.stats_interval_s,
                   "Seconds between stats lines (0: none)")
        ->envname("CAROM_STATS_INTERVAL")
        ->check(carom::cli::finite(0, 86400))
        ->capture_default_str();
    app.add_option("--stats-file", o.host.stats_file,
                   "JSON stats rewritten every second (health: \"healthy\" and its age)")
        ->envname("CAROM_STATS_FILE");
    app.add_option("--ready-file", o.host.ready_file,
                   "Written once listening: {\"port\": N, \"pid\": P}")
        ->envname("CAROM_READY_FILE");
    app.add_option("--log-level", o.log_level, "trace, debug, info, warn, error, off")
        ->envname("CAROM_LOG_LEVEL")
        ->capture_default_str()
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    app.add_option("--log-format", o.log_format, "text, or json (one object per line)")
        ->envname("CAROM_LOG_FORMAT")
        ->capture_default_str()
        ->check(CLI::IsMember({"text", "json"}));
    app.add_option("--http", o.http_address,
                   "Serve HTTP on ADDR:PORT (port 0: any free one, see --ready-file): "
                   "/metrics (Prometheus), /healthz, the play page at / and browsers' "
                   "WebSockets at /ws; empty: no HTTP")
        ->envname("CAROM_HTTP")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                if (text.empty()) return {};
                const auto address = parse_http_address(text);
                return address ? std::string() : address.error().message;
            },
            "ADDR:PORT"));
    app.add_option("--web-dir", o.web.page_dir,
                   "The play page's files (default: share/carom/web beside this program, "
                   "else the build tree's `make web` output)")
        ->envname("CAROM_WEB_DIR");
    app.add_option("--ws-origin", o.web.origins,
                   "Origins whose pages may open /ws besides the server's own "
                   "(https://play.example.org; * for any; comma-separated too)")
        ->delimiter(',')
        ->envname("CAROM_WS_ORIGIN");
    app.add_option("--ws-send-queue", o.ws_send_queue_kib,
                   "KiB waiting to be sent to one browser before it is dropped as too slow")
        ->envname("CAROM_WS_SEND_QUEUE")
        ->check(carom::cli::finite(4, 65536))
        ->capture_default_str();
    app.add_option("--tls-cert", o.web.tls_cert,
                   "PEM certificate chain: the HTTP port speaks HTTPS and wss:// only "
                   "(with --tls-key)")
        ->envname("CAROM_TLS_CERT")
        ->check(CLI::ExistingFile);
    app.add_option("--tls-key", o.web.tls_key, "PEM private key of --tls-cert")
        ->envname("CAROM_TLS_KEY")
        ->check(CLI::ExistingFile);
    app.add_option("--stall-after", o.stall_after_s,
                   "Seconds without a tick before /healthz fails and Agones health pings stop")
        ->envname("CAROM_STALL_AFTER")
        ->capture_default_str()
        ->check(carom::cli::finite(0.1, 3600));
    app.add_flag("--agones", o.use_agones,
                 "Report to the Agones SDK on 127.0.0.1:AGONES_SDK_HTTP_PORT (on by itself "
                 "when that variable is set)")
        ->envname("CAROM_AGONES");
    // Tests only: SIGUSR2 blocks the tick thread this long, as a stuck tick
    // would, while the HTTP and Agones threads go on.
    app.add_option("--test-stall-on-sigusr2", o.test_stall_s)
        ->group("")
        ->check(carom::cli::finite(0, 600));
}

void add_options(CLI::App& app, Options& o) {
    app.footer(
        "Exit codes: 0 clean shutdown on SIGINT/SIGTERM, 1 cannot start, 2 bad arguments.\n"
        "Every option can also be set with the environment variable shown.\n"
        "A map named without a path (arena) is NAME.json, else NAME.hbs, in each directory\n"
        "of CAROM_MAPS (':'-separated), in maps/ beside this program, then in\n"
        "../share/carom/maps.");
    carom::cli::add_version(app);
    add_socket_options(app, o);
    add_server_options(app, o);
    add_operator_options(app, o);
}

void set_up_logging(const Options& o) {
    use_log_format(o.log_format, "carom-server");
    spdlog::set_level(spdlog::level::from_str(o.log_level));
}

// AGONES_SDK_HTTP_PORT, when set, is the sidecar's port and turns Agones on.
// Returns the reason when it is not a port number.
std::optional<std::string> read_agones_port(Options& o) {
    const char* agones_port = std::getenv("AGONES_SDK_HTTP_PORT");
    if (agones_port == nullptr) return std::nullopt;
    unsigned value = 0;
    const std::string text = agones_port;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value == 0 || value > 65535)
        return "AGONES_SDK_HTTP_PORT: '" + text + "' is not a port number";
    o.agones.port = static_cast<std::uint16_t>(value);
    o.use_agones = true;
    return std::nullopt;
}

// The options' ServerConfig with its map files found; nullopt (logged) when one is not.
std::optional<ServerConfig> server_config(const Options& o) {
    ServerConfig config = o.config;
    config.delta_updates = !o.no_delta;
    const auto map_dirs = carom::maps::map_search_dirs();
    for (const auto& m : o.maps) {
        auto found = carom::maps::resolve_map(m, map_dirs);
        if (!found) {
            spdlog::critical("cannot start: {}", found.error().message);
            return std::nullopt;
        }
        config.maps.push_back(*found);
    }
    if (!o.token_key_file.empty()) {
        std::ifstream in(o.token_key_file);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) {
            spdlog::critical("cannot start: --token-key {}: cannot read it", o.token_key_file);
            return std::nullopt;
        }
        auto key = carom::protocol::key_from_hex(text.str());
        if (!key) {
            spdlog::critical("cannot start: --token-key {}: {}", o.token_key_file,
                             key.error().message);
            return std::nullopt;
        }
        config.token_key = *key;
    }
    return config;
}

// The address tokens name this server by when --public-address does not
// say: the bound one, when it is one address.
std::optional<std::string> bound_address(const UdpTransport& transport) {
    const auto local = transport.local_endpoint();
    if (local.address().is_unspecified()) return std::nullopt;
    return local.address().is_v6()
               ? fmt::format("[{}]:{}", local.address().to_string(), local.port())
               : fmt::format("{}:{}", local.address().to_string(), local.port());
}

// Where the play page is when --web-dir does not say: installed beside this
// program, else the build tree's.
std::filesystem::path default_page_dir() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::canonical("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path().parent_path() / "share" / "carom" / "web";
        if (std::filesystem::is_regular_file(installed / "play.html", ec)) return installed;
    }
    return CAROM_PLAY_PAGE_BUILD_DIR;
}

// The HTTP port, when --http is given; its port goes into the ready file.
void start_web(std::optional<WebDoor>& web, Options& o, const Metrics& metrics) {
    if (o.http_address.empty()) return;
    o.web.address = *parse_http_address(o.http_address);  // checked by --http
    if (o.web.page_dir.empty()) o.web.page_dir = default_page_dir();
    o.web.max_send_queue_bytes = o.ws_send_queue_kib * 1024;
    web.emplace(o.web, metrics);
    o.host.ready_extra["http_port"] = web->port();
    o.host.web = &*web;
    std::error_code ec;
    const bool page = std::filesystem::is_regular_file(o.web.page_dir / "play.html", ec);
    spdlog::info("http: /metrics, /healthz, /ws{} on {}{} port {}",
                 page ? " and the play page" : "", web->tls() ? "https://" : "", o.web.address.host,
                 web->port());
    if (!page)
        spdlog::warn("http: no play page in {} (build it with `make web`, or give --web-dir)",
                     o.web.page_dir.string());
}

// Tests only (--test-stall-on-sigusr2): each SIGUSR2 blocks the tick thread
// for `seconds`, as a stuck tick would.
class TestStall {
  public:
    TestStall(asio::io_context& io, double seconds) : signal_(io), seconds_(seconds) {
        if (seconds_ <= 0) return;
        signal_.add(SIGUSR2);
        arm();
    }
    // Nothing may keep the io_context running after the drain.
    void cancel() { signal_.cancel(); }

  private:
    void arm() {
        signal_.async_wait([this](std::error_code ec, int) {
            if (ec) return;
            spdlog::warn("SIGUSR2: blocking the tick thread for {} s (test hook)", seconds_);
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds_));
            arm();
        });
    }

    asio::signal_set signal_;
    double seconds_;
};

// The host's calls on the tick thread: the metrics follow every tick, Agones
// hears Ready once listening, and a shutdown marks the server draining.
void connect_host(HostOptions& host, Metrics& metrics, const Server& server,
                  const UdpTransport& transport, std::optional<AgonesClient>& agones,
                  TestStall& stall) {
    host.on_tick = [&](double work_ms, double late_ms) {
        metrics.record_tick(work_ms, late_ms);
        metrics.publish(server, transport);
    };
    host.on_listening = [&] {
        metrics.publish(server, transport, true);
        if (agones) agones->ready();
    };
    host.on_stopping = [&] {
        metrics.set_draining();
        stall.cancel();
    };
}

// Serves until SIGINT/SIGTERM and drains; the exit code.
int serve(Options& o, const ServerConfig& config) {
    try {
        Metrics metrics{std::chrono::duration<double>(o.stall_after_s)};
        asio::io_context io;
        // First, so that a signal during start-up is a clean shutdown too.
        asio::signal_set signals(io, SIGINT, SIGTERM);
        // After the io_context: it goes first, so it never wakes a gone one.
        std::optional<WebDoor> web;
        start_web(web, o, metrics);
        UdpTransport transport(io, o.bind, o.port, o.socket_buffer_bytes);
        SplitTransport doors(transport, web ? &*web : nullptr);
        DiskThread disk;
        ServerConfig with_address = config;
        if (config.token_key) {
            if (const auto bound = bound_address(transport)) {
                with_address.token_servers.push_back(*bound);
            } else if (config.token_servers.empty()) {
                spdlog::critical(
                    "cannot start: --token-key: tokens name the server by the address its "
                    "players reach: give --public-address HOST:PORT (bound to {})",
                    o.bind);
                return kExitCannotStart;
            }
            spdlog::info("connect tokens required, for {}",
                         fmt::join(with_address.token_servers, ", "));
        }
        Server server(with_address, doors, disk, CookieJar{}, run_id_now());
        std::optional<AgonesClient> agones;
        if (o.use_agones) agones.emplace(o.agones, metrics);
        TestStall stall(io, o.test_stall_s);
        connect_host(o.host, metrics, server, transport, agones, stall);
        const int code = run_host(io, signals, transport, server, o.host);
        metrics.publish(server, transport, true);
        if (agones) agones->shutdown();  // after the drain: clients told, replays finished
        return code;
    } catch (const std::exception& e) {
        spdlog::critical("cannot start: {}", e.what());
        return kExitCannotStart;
    }
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{"carom-server: the authoritative carom game server (UDP)"};
    add_options(app, options);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    set_up_logging(options);
    if (const auto error = read_agones_port(options)) return carom::cli::usage_error(app, *error);
    const std::optional<ServerConfig> config = server_config(options);
    if (!config) return kExitCannotStart;
    return serve(options, *config);
}
