// carom-server: hosts matches over UDP until SIGINT/SIGTERM.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <ctime>

#include "udp_host.hpp"

namespace {

// Exit codes: 0 clean shutdown, 1 could not start (socket, maps, replay dir), 2 bad arguments.
constexpr int kExitCannotStart = 1;

std::string run_id_now() {
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char out[32];
    std::strftime(out, sizeof out, "%Y%m%d-%H%M%S", &utc);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace carom::server;
    ServerConfig config;
    HostOptions host;
    std::string bind = "::";
    std::uint16_t port = 27960;
    int socket_buffer_bytes = UdpTransport::kSocketBufferBytes;
    std::string log_level = "info";
    std::vector<std::string> maps = {"shared/game/maps/arena.json"};

    CLI::App app{"carom-server: the authoritative carom game server (UDP)"};
    app.footer(
        "Exit codes: 0 clean shutdown on SIGINT/SIGTERM, 1 cannot start, 2 bad arguments.\n"
        "Every option can also be set with the environment variable shown.");
    app.add_option("--bind", bind, "Address to listen on (:: = IPv6 and IPv4)")
        ->envname("CAROM_BIND")
        ->capture_default_str();
    app.add_option("--port", port, "UDP port (0: any free port, see --ready-file)")
        ->envname("CAROM_PORT")
        ->capture_default_str();
    app.add_option("--socket-buffer", socket_buffer_bytes,
                   "Socket receive and send buffer bytes asked for (capped by "
                   "net.core.rmem_max/wmem_max)")
        ->envname("CAROM_SOCKET_BUFFER")
        ->check(CLI::Range(4096, 1 << 30))
        ->capture_default_str();
    app.add_option("--map", maps, "Map file(s), assigned to rooms in turn")
        ->envname("CAROM_MAPS")
        ->capture_default_str();
    app.add_option("--rooms", config.rooms, "Matches run by this process")
        ->envname("CAROM_ROOMS")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    app.add_option("--max-clients", config.max_clients, "Players and spectators, all rooms")
        ->envname("CAROM_MAX_CLIENTS")
        ->capture_default_str();
    app.add_option("--max-sessions-per-ip", config.max_sessions_per_ip,
                   "Sessions from one source IP (any port); more are denied")
        ->envname("CAROM_MAX_SESSIONS_PER_IP")
        ->capture_default_str();
    app.add_option("--handshake-rate", config.handshake_replies_per_ip_s,
                   "Handshake replies per source IP per second")
        ->envname("CAROM_HANDSHAKE_RATE")
        ->capture_default_str();
    app.add_option("--max-spectators", config.max_spectators_per_room, "Spectators per room")
        ->envname("CAROM_MAX_SPECTATORS")
        ->capture_default_str();
    app.add_flag("--bots", config.bots, "Fill empty player slots with server-side bots")
        ->envname("CAROM_BOTS");
    app.add_option("--snapshot-rate", config.snapshot_rate_hz, "Snapshots per second (divides 60)")
        ->envname("CAROM_SNAPSHOT_RATE")
        ->capture_default_str();
    app.add_option("--input-redundancy", config.input_redundancy, "Inputs per client packet (K)")
        ->envname("CAROM_INPUT_REDUNDANCY")
        ->capture_default_str();
    app.add_flag("!--no-delta", config.delta_snapshots, "Always send full snapshots");
    app.add_option("--timeout", config.timeout_s, "Seconds of silence before a client times out")
        ->envname("CAROM_TIMEOUT")
        ->capture_default_str();
    app.add_option("--grace", config.grace_s, "Seconds a timed-out player's slot is kept")
        ->envname("CAROM_GRACE")
        ->capture_default_str();
    app.add_option("--final-pause", config.final_pause_s,
                   "Seconds a finished match stays on screen (phase finished) before the next")
        ->envname("CAROM_FINAL_PAUSE")
        ->capture_default_str();
    app.add_option("--replay-dir", config.replay_dir, "Record every match here (empty: no replays)")
        ->envname("CAROM_REPLAY_DIR");
    app.add_option("--seed", config.seed, "Seed of the first matches")
        ->envname("CAROM_SEED")
        ->capture_default_str();
    app.add_option("--ban", config.banned_names, "Player names to refuse")->envname("CAROM_BAN");
    app.add_option("--stats-interval", host.stats_interval_s,
                   "Seconds between stats lines (0: none)")
        ->envname("CAROM_STATS_INTERVAL")
        ->capture_default_str();
    app.add_option("--stats-file", host.stats_file,
                   "JSON stats rewritten every second (health: \"healthy\" and its age)")
        ->envname("CAROM_STATS_FILE");
    app.add_option("--ready-file", host.ready_file,
                   "Written once listening: {\"port\": N, \"pid\": P}")
        ->envname("CAROM_READY_FILE");
    app.add_option("--log-level", log_level, "trace, debug, info, warn, error, off")
        ->envname("CAROM_LOG_LEVEL")
        ->capture_default_str()
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    CLI11_PARSE(app, argc, argv);

    spdlog::set_default_logger(spdlog::stderr_logger_st("carom-server"));
    spdlog::set_level(spdlog::level::from_str(log_level));
    for (const auto& m : maps)
        config.maps.emplace_back(m);

    try {
        asio::io_context io;
        // First, so that a signal during start-up is a clean shutdown too.
        asio::signal_set signals(io, SIGINT, SIGTERM);
        UdpTransport transport(io, bind, port, socket_buffer_bytes);
        Server server(config, transport, CookieJar{}, run_id_now());
        return run_host(io, signals, transport, server, host);
    } catch (const std::exception& e) {
        spdlog::critical("cannot start: {}", e.what());
        return kExitCannotStart;
    }
}
