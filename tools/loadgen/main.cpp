// carom-loadgen: many simulated players in one process against a carom-server,
// then a report of what they saw (acceptance, round-trip time, update rate
// and loss, bandwidth). Each talks over UDP, or (--ws) over the server's
// WebSocket door as a browser does.
#include <sys/resource.h>

#include <fmt/format.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>

#include "carom/cli/cli.hpp"
#include "carom/client/host_port.hpp"
#include "carom/client/map_store.hpp"
#include "carom/linksim/link_spec.hpp"
#include "carom/maps/library_map_store.hpp"
#include "carom/maps/map_library.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/protocol/connect_token.hpp"
#include "garbage_sender.hpp"
#include "sim_client.hpp"
#include "wire.hpp"

namespace {

using namespace carom;
using namespace carom::loadgen;

constexpr int kExitFailed = 1;
constexpr int kExitBadArguments = 2;
constexpr std::uint64_t kStartsPerTick = 16;  // clients spread their handshakes over ticks
// Past this many ticks behind, the timer skips ahead instead of bursting.
constexpr std::int64_t kMaxLateTicks = 4;
// The run is cut here whatever happens: --seconds plus this.
constexpr auto kHardStopSlack = std::chrono::seconds(3);
// After the run, the WebSockets' last messages (the Disconnect) and their
// close handshakes are given at most this.
constexpr auto kCloseTime = std::chrono::seconds(1);

struct Options {
    std::string server;
    std::uint32_t clients = 8;
    std::int32_t rooms = 1;
    double seconds = 10.0;
    std::uint32_t spectators = 0;
    std::uint64_t garbage = 0;
    std::vector<std::string> maps_dirs;
    std::string map_cache = carom::maps::MapLibrary::default_cache_dir().string();
    bool json = false;
    std::string log_level = "warn";
    std::optional<std::uint64_t> seed;
    std::uint64_t max_gap_ms = 250;
    std::string sim;
    std::optional<linksim::LinkSpec> link;  // parsed from --sim
    std::string ws;                         // ws://HOST:PORT/PATH
    std::optional<std::uint32_t> ws_clients;
    std::uint32_t change_ticks = client::SendPolicyConfig{}.change_ticks;
    bool every_tick = false;
    std::string input = "bot";
    std::uint32_t ack_ticks = client::SendPolicyConfig{}.ack_ticks;
    std::vector<std::string> token_files;           // --token: client i uses the i-th
    std::string token_key_file;                     // --token-key: a token minted per client
    std::vector<std::vector<std::uint8_t>> tokens;  // read or minted, one a client
};

// Where the clients go: the server's UDP port, and its WebSocket door for
// the first ws_clients of them.
struct Targets {
    asio::ip::udp::endpoint udp;
    std::optional<asio::ip::tcp::endpoint> ws;
    WsUrl ws_url;
    std::uint32_t ws_clients = 0;
};

// Options::tokens from --token files, or made with --token-key.
Status load_tokens(Options& o) {
    const std::uint32_t total = o.clients + o.spectators;
    if (!o.token_files.empty()) {
        if (o.token_files.size() < total)
            return fail(
                fmt::format("--token: {} token files for {} clients", o.token_files.size(), total));
        for (const auto& f : o.token_files) {
            auto bytes = protocol::load_connect_token(f);
            if (!bytes) return fail("--token " + bytes.error().message);
            o.tokens.push_back(std::move(*bytes));
        }
        return {};
    }
    if (o.token_key_file.empty()) return {};
    std::ifstream in(o.token_key_file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) return fail("--token-key " + o.token_key_file + ": cannot read it");
    const auto key = protocol::key_from_hex(text.str());
    if (!key) return key.error_in("--token-key " + o.token_key_file);
    const auto now =
        static_cast<std::uint64_t>(std::chrono::floor<std::chrono::seconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
    for (std::uint32_t i = 0; i < total; ++i) {
        protocol::TokenGrant g;
        g.player_id = i + 1;
        g.name = "load" + std::to_string(i);
        g.servers = {o.server};
        auto token =
            protocol::make_connect_token(*key, g, now, static_cast<std::uint64_t>(o.seconds) + 60);
        if (!token) return token.error_in("--token-key");
        o.tokens.push_back(std::move(*token));
    }
    return {};
}

nlohmann::json to_json(const linksim::LinkStats& s) {
    return {{"sent", s.sent},
            {"lost", s.lost},
            {"overflowed", s.overflowed},
            {"duplicated", s.duplicated},
            {"reordered", s.reordered},
            {"delivered", s.delivered}};
}

void add(linksim::LinkStats& sum, const linksim::LinkStats& s) {
    sum.sent += s.sent, sum.lost += s.lost, sum.overflowed += s.overflowed;
    sum.duplicated += s.duplicated, sum.reordered += s.reordered, sum.delivered += s.delivered;
}

// Each simulated client holds a socket: lift the descriptor limit to its hard cap.
void raise_descriptor_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

template <class Protocol>
std::optional<typename Protocol::endpoint> resolve(asio::io_context& io, const std::string& host,
                                                   std::uint16_t port) {
    typename Protocol::resolver resolver(io);
    boost::system::error_code ec;
    const auto results = resolver.resolve(host, std::to_string(port), ec);
    if (ec || results.empty()) {
        spdlog::error("cannot resolve '{}': {}", host, ec ? ec.message() : "no address");
        return std::nullopt;
    }
    return results.begin()->endpoint();
}

// The 60 Hz client loop. Tick k is due at start + k/60 s, computed from k so
// that lateness never accumulates into drift.
class Runner {
  public:
    Runner(asio::io_context& io, std::vector<std::unique_ptr<SimClient>>& clients,
           GarbageSender* garbage, RunClock& clock, std::uint64_t run_ms)
        : io_(io),
          timer_(io),
          clients_(clients),
          garbage_(garbage),
          clock_(clock),
          run_ms_(run_ms) {}

    void start() { schedule(); }
    // No tick after this, even when the loop runs on (hard stop).
    void halt() {
        finished_ = true;
        timer_.cancel();
    }
    bool finished() const { return finished_; }
    std::uint64_t skipped_ticks() const { return skipped_; }

  private:
    static constexpr std::chrono::duration<std::int64_t, std::ratio<1, 60>> kPeriod{1};

    std::chrono::steady_clock::time_point due(std::uint64_t k) const {
        return clock_.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  kPeriod * static_cast<std::int64_t>(k));
    }

    void schedule() {
        timer_.expires_at(due(tick_));
        timer_.async_wait([this](boost::system::error_code ec) {
            if (!ec && !finished_) on_tick();
        });
    }

    void on_tick() {
        const std::uint64_t now = clock_.now_ms();
        clock_.loop_ran(now);
        if (now >= run_ms_) {
            finished_ = true;
            if (garbage_ != nullptr) garbage_->tick(run_ms_);  // the last ones fall due at the end
            io_.stop();  // the sockets' pending receives would keep run_until() going
            return;
        }
        const std::uint64_t started =
            std::min<std::uint64_t>((tick_ + 1) * kStartsPerTick, clients_.size());
        for (; started_ < started; ++started_)
            clients_[started_]->start();
        for (std::size_t i = 0; i < started_; ++i)
            clients_[i]->tick();
        if (garbage_ != nullptr) garbage_->tick(now);

        ++tick_;
        const auto late = std::chrono::steady_clock::now() - due(tick_);
        if (late > kPeriod * kMaxLateTicks) {
            const auto behind = static_cast<std::uint64_t>(late / kPeriod);
            skipped_ += behind;
            tick_ += behind;
        }
        schedule();
    }

    asio::io_context& io_;
    asio::steady_timer timer_;
    std::vector<std::unique_ptr<SimClient>>& clients_;
    GarbageSender* garbage_;
    RunClock& clock_;
    std::uint64_t run_ms_;
    std::uint64_t tick_ = 0;
    std::size_t started_ = 0;
    std::uint64_t skipped_ = 0;
    bool finished_ = false;
};

// A server on IPv4 loopback is reached from a source address of 127.0.0.0/8
// a client (all of it is local): a server's limits per address (sessions,
// handshake replies) then meet one player each, as on the Internet. IPv6
// has one loopback address, ::1: all clients share it.
bool spreads_over_loopback(const asio::ip::address& server) {
    return server.is_v4() && server.is_loopback();
}
// Client i's: 127.1.0.1 on, clear of the 127.0.0.1 a server usually binds.
asio::ip::address source_address(std::uint32_t i) {
    return asio::ip::address_v4(0x7F01'0001U + i);
}

int run(const Options& o, const Targets& to, asio::io_context& io) {
    const std::uint64_t seed = o.seed.value_or(std::random_device{}());
    std::mt19937_64 rng(seed);
    std::optional<linksim::LinkSpec> link = o.link;
    if (link) {
        if (!link->seed) link->seed = o.seed.value_or(std::random_device{}());
        // Printed whatever the log level: the run repeats with this spec.
        std::fprintf(stderr, "carom-loadgen: simulated link (each direction) %s\n",
                     linksim::to_string(*link).c_str());
    }
    spdlog::info("{} players, {} spectators, {} rooms against {}; seed {}", o.clients, o.spectators,
                 o.rooms, o.server, seed);
    if (to.ws_clients > 0)
        spdlog::info("the first {} clients over WebSocket at {}", to.ws_clients, o.ws);

    const std::vector<std::filesystem::path> given(o.maps_dirs.begin(), o.maps_dirs.end());
    std::vector<std::filesystem::path> dirs = maps::map_search_dirs(given);
    maps::LibraryMapStore map_store(maps::MapLibrary(o.map_cache, std::move(dirs)));
    RunClock clock;
    const auto run_ms = static_cast<std::uint64_t>(o.seconds * 1000.0);

    std::vector<std::unique_ptr<SimClient>> clients;
    const std::uint32_t total = o.clients + o.spectators;
    const bool spread = spreads_over_loopback(to.udp.address()) &&
                        (!to.ws || spreads_over_loopback(to.ws->address()));
    if (spread)
        spdlog::info(
            "clients from {} to {} (a source address each: the server's limits are per address)",
            source_address(0).to_string(), source_address(total - 1).to_string());
    try {
        for (std::uint32_t i = 0; i < total; ++i) {
            client::ConnectionConfig c;
            c.name = "load" + std::to_string(i);
            c.history_ticks = 0;  // it draws nothing
            c.room = o.rooms > 0
                         ? static_cast<std::int32_t>(i % static_cast<std::uint32_t>(o.rooms))
                         : -1;
            c.spectator = i >= o.clients;
            c.token = rng();
            if (!o.tokens.empty()) c.connect_token = o.tokens[i];
            const auto source = spread ? std::optional(source_address(i)) : std::nullopt;
            std::unique_ptr<Wire> wire = i < to.ws_clients ? ws_wire(io, *to.ws, source, to.ws_url)
                                                           : udp_wire(io, to.udp, source);
            c.send.ack_ticks = o.ack_ticks;
            c.send.change_ticks = o.change_ticks;
            c.send.every_tick = o.every_tick;
            clients.push_back(
                std::make_unique<SimClient>(io, std::move(wire), std::move(c), clock, map_store));
            if (o.input == "human") clients.back()->play_human(rng());
            if (link)
                clients.back()->simulate_link(*link, linksim::derive_seed(*link->seed, 2 * i),
                                              linksim::derive_seed(*link->seed, 2 * i + 1));
        }
    } catch (const boost::system::system_error& e) {
        spdlog::error("cannot open socket {} of {}: {}", clients.size() + 1, total, e.what());
        return kExitFailed;
    }
    std::optional<GarbageSender> garbage;
    if (o.garbage > 0) garbage.emplace(io, to.udp, o.garbage, run_ms, rng());

    Runner runner(io, clients, garbage ? &*garbage : nullptr, clock, run_ms);
    runner.start();
    // Returns when the runner stops the loop (run over), or at the hard stop.
    io.run_until(clock.start + std::chrono::milliseconds(run_ms) + kHardStopSlack);
    if (!runner.finished()) spdlog::warn("hard stop: the client loop did not finish in time");
    runner.halt();
    if (runner.skipped_ticks() > 0)
        spdlog::warn("the client loop fell behind and skipped {} ticks", runner.skipped_ticks());
    const std::uint64_t own_stalls_ms = clock.own_stalls_ms(clock.now_ms());

    std::vector<ClientResult> results;
    results.reserve(clients.size());
    linksim::LinkStats up, down;
    for (auto& c : clients) {
        results.push_back(c->finish());
        add(up, c->uplink_stats());
        add(down, c->downlink_stats());
    }
    const double seconds = static_cast<double>(clock.now_ms()) / 1000.0;
    Report report = summarise(results, seconds, garbage ? garbage->sent() : 0, o.max_gap_ms);
    report.own_stalls_ms = own_stalls_ms;
    // The WebSockets' Disconnects and close handshakes; UDP's went out at once.
    io.restart();
    io.run_for(kCloseTime);

    if (o.json) {
        nlohmann::json j = to_json(report);
        j["server"] = o.server;
        j["rooms"] = o.rooms;
        j["seed"] = seed;
        j["ws_clients"] = to.ws_clients;
        if (link)
            j["link"] = {
                {"spec", linksim::to_string(*link)}, {"up", to_json(up)}, {"down", to_json(down)}};
        std::printf("%s\n", j.dump().c_str());
    } else {
        std::printf("%s", to_text(report).c_str());
        if (link)
            std::printf(
                "simulated link: up %llu sent, %llu lost, %llu duplicated, %llu reordered; "
                "down %llu sent, %llu lost, %llu duplicated, %llu reordered\n",
                static_cast<unsigned long long>(up.sent), static_cast<unsigned long long>(up.lost),
                static_cast<unsigned long long>(up.duplicated),
                static_cast<unsigned long long>(up.reordered),
                static_cast<unsigned long long>(down.sent),
                static_cast<unsigned long long>(down.lost),
                static_cast<unsigned long long>(down.duplicated),
                static_cast<unsigned long long>(down.reordered));
    }
    return report.ok() ? 0 : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"carom-loadgen: simulated players against a carom-server"};
    app.footer(
        "Exit codes: 0 every client was accepted and received updates, 1 otherwise,\n"
        "2 bad arguments (or a server name that does not resolve).");
    app.add_option("--server", o.server, "HOST:PORT, [IPV6]:PORT or NAME:PORT")->required();
    app.add_option("--clients", o.clients, "Simulated players")->capture_default_str();
    app.add_option("--rooms", o.rooms, "Client i asks for room i % R (0: any room)")
        ->check(carom::cli::finite(0, 1 << 20))
        ->capture_default_str();
    app.add_option("--seconds", o.seconds, "Length of the run")
        ->check(carom::cli::finite(0.1, 86400.0))
        ->capture_default_str();
    app.add_option("--spectators", o.spectators, "Simulated spectators, besides the players")
        ->capture_default_str();
    app.add_option("--garbage", o.garbage,
                   "Junk datagrams spread over the run, from another socket")
        ->capture_default_str();
    app.add_option("--maps-dir", o.maps_dirs,
                   "Where map files (<map>.json, .hbs) are (tried first)");
    app.add_option("--map-cache", o.map_cache,
                   "Maps fetched from servers, kept by hash (empty: none kept)")
        ->capture_default_str();
    app.add_flag("--json", o.json, "Print the report as one JSON object");
    app.add_option("--max-gap-ms", o.max_gap_ms,
                   "Fail when a client waits longer than this for an update, or a player "
                   "for the server to apply one of its inputs")
        ->check(carom::cli::at_least(0))
        ->capture_default_str();
    app.add_option("--log-level", o.log_level, "trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
        ->capture_default_str();
    app.add_option("--seed", o.seed, "Seed of the tokens and the junk (default: random)");
    app.add_option("--ws", o.ws,
                   "The server's WebSocket door, ws://HOST:PORT/ws (carom-server --http): "
                   "clients connect there as the play page does, one datagram a binary message");
    app.add_option("--ws-clients", o.ws_clients,
                   "How many of the clients (the first: players, then spectators) use --ws; "
                   "the others UDP (default with --ws: all)");
    app.add_option("--sim", o.sim,
                   "Simulate a bad link in each direction of every client: "
                   "loss=%,latency=ms,jitter=ms,dup=%,reorder=%,rate=kbit/s,queue=ms,seed=N "
                   "(seed default: --seed, else random; printed)");
    app.add_option("--input", o.input,
                   "What the players play: the game's bot, or scripted human-like keys "
                   "(a direction held 100 to 300 ms, about 5 changes a second)")
        ->check(CLI::IsMember({"bot", "human"}))
        ->capture_default_str();
    app.add_option("--change-ticks", o.change_ticks,
                   "Ticks an input change goes out on: its own, and copies on the next")
        ->check(CLI::Range(1, 8))
        ->capture_default_str();
    app.add_flag("--every-tick", o.every_tick,
                 "Players send every tick's input, changed or not (the protocol before "
                 "sending by need: a baseline to measure against)");
    app.add_option("--ack-ticks", o.ack_ticks,
                   "A player without an input change acknowledges a newer state at most "
                   "every this many ticks (1: every tick)")
        ->check(CLI::Range(1, 60))
        ->capture_default_str();
    app.add_option("--token", o.token_files,
                   "A connect token file for a server with --token-key (repeatable: client i "
                   "uses the i-th)");
    app.add_option("--token-key", o.token_key_file,
                   "The server's token key: a token is made for each client (player id i + 1, "
                   "name loadI, for the --server text as given, good for the run and a minute)")
        ->excludes("--token");
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    if (const auto status = load_tokens(o); !status)
        return carom::cli::usage_error(app, status.error().message);
    if (!o.sim.empty() || app.count("--sim") > 0) {
        auto spec = linksim::parse_link_spec(o.sim);
        if (!spec) return carom::cli::usage_error(app, "--sim: " + spec.error().message);
        o.link = *spec;
    }
    spdlog::set_default_logger(spdlog::stderr_logger_st("carom-loadgen"));
    spdlog::set_level(spdlog::level::from_str(o.log_level));
    if (std::uint64_t{o.clients} + o.spectators == 0) {
        return carom::cli::usage_error(
            app, "nothing to simulate: --clients and --spectators are both 0");
    }
    auto parsed = client::parse_host_port(o.server);
    if (!parsed) return carom::cli::usage_error(app, "--server " + parsed.error().message);
    const std::uint32_t total = o.clients + o.spectators;
    if (o.ws_clients && o.ws.empty())
        return carom::cli::usage_error(app,
                                       "--ws-clients needs --ws (the server's WebSocket door)");
    if (o.ws_clients && *o.ws_clients > total)
        return carom::cli::usage_error(
            app, fmt::format("--ws-clients {} is more than the {} clients", *o.ws_clients, total));
    Targets to;
    asio::io_context io;
    if (!o.ws.empty()) {
        auto url = parse_ws_url(o.ws);
        if (!url) return carom::cli::usage_error(app, "--ws " + url.error().message);
        to.ws = resolve<asio::ip::tcp>(io, url->host, url->port);
        if (!to.ws) return kExitBadArguments;
        to.ws_url = *url;
        to.ws_clients = o.ws_clients.value_or(total);
    }
    raise_descriptor_limit();
    const auto server = resolve<asio::ip::udp>(io, parsed->host, parsed->port);
    if (!server) return kExitBadArguments;
    to.udp = *server;
    return run(o, to, io);
}
