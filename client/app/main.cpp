// carom-client: join a carom match and play it in the terminal (or, with
// --bot, let the game's bot play without one). One loop, three clocks: the
// socket is drained whenever it has data, the simulation ticks at the
// server's rate, frames are drawn at --fps; the loop sleeps in poll() until
// the earliest of them, so nothing waits on anything else.
#include <poll.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>

#include "carom/cli/cli.hpp"
#include "carom/client/host_port.hpp"
#include "carom/client/room_text.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/linksim/link_spec.hpp"
#include "carom/maps/library_map_store.hpp"
#include "carom/maps/map_library.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/play/player.hpp"
#include "carom/play/room_list.hpp"
#include "carom/protocol/connect_token.hpp"
#include "carom/render/render.hpp"
#include "carom/terminal/steer_key.hpp"
#include "carom/terminal/terminal.hpp"
#include "status.hpp"
#include "udp_link.hpp"

namespace {

constexpr int kExitError = 1;
constexpr int kExitUnreachable = 3;
constexpr std::uint16_t kDefaultPort = 27960;
// A loop that fell this far behind (a suspended process) skips ahead rather
// than running every missed tick back to back.
constexpr std::int64_t kMaxCatchUpUs = 250'000;

volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_signal(int signal) {
    g_signal = signal;
}

bool signalled() {
    return g_signal != 0;
}

void install_signal_handlers() {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    for (const int s : {SIGINT, SIGTERM, SIGHUP})
        sigaction(s, &action, nullptr);
}

struct Options {
    std::string server;
    std::string name;
    std::int32_t room = -1;
    bool spectate = false;
    bool list = false;
    bool json = false;
    bool bot = false;
    bool ascii = false;
    double fps = 30.0;
    std::uint64_t hold_ms = 520;
    std::uint64_t repeat_ms = 120;
    std::string keyboard = "auto";
    std::uint64_t connect_timeout_ms = 5000;
    double duration_s = 0.0;
    std::vector<std::string> map_dirs;
    std::string map_cache = carom::maps::MapLibrary::default_cache_dir().string();
    std::string log_level = "info";
    std::string sim;
    std::string token_file;
};

class Clock {
  public:
    std::int64_t now_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - start_)
            .count();
    }
    std::uint64_t now_ms() const { return static_cast<std::uint64_t>(now_us() / 1000); }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::vector<std::filesystem::path> map_dirs(const Options& o) {
    const std::vector<std::filesystem::path> given(o.map_dirs.begin(), o.map_dirs.end());
    return carom::maps::map_search_dirs(given);
}

// The loop both modes share; `frame` draws (terminal mode) and `keys` reads input.
struct Loop {
    carom::play::Player& player;
    carom::app::UdpLink& link;
    const Clock& clock;
    std::int64_t tick_us;
    std::int64_t frame_us;  // 0: no frames
    std::function<void(std::uint64_t)> frame;
    std::function<bool(std::uint64_t)> keys;  // false: quit
    std::function<bool(std::uint64_t)> done;  // true: leave (bot duration)

    // Returns the signal that stopped it, or 0.
    int run() {
        const int signal = loop();
        link.flush_simulated();  // the Disconnect goes out, however bad the link
        return signal;
    }

    int loop() {
        std::int64_t next_tick = clock.now_us();
        std::int64_t next_frame = next_tick;
        pollfd fds[2] = {{link.native_handle(), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        const nfds_t nfds = keys ? 2 : 1;
        for (;;) {
            link.drain(
                [this](std::span<const std::uint8_t> d) { player.on_datagram(d, clock.now_ms()); });
            std::int64_t now = clock.now_us();
            if (now - next_tick > kMaxCatchUpUs) next_tick = now;
            while (now >= next_tick) {
                player.tick(clock.now_ms());
                next_tick += tick_us;
            }
            if (keys && !keys(clock.now_ms())) {
                player.quit(clock.now_ms());
                return 0;
            }
            if (g_signal != 0) {
                player.quit(clock.now_ms());
                return g_signal;
            }
            if (done && done(clock.now_ms())) {
                player.quit(clock.now_ms());
                return 0;
            }
            if (player.ending()) return 0;
            now = clock.now_us();
            if (frame_us > 0 && now >= next_frame) {
                frame(clock.now_ms());
                next_frame = std::max(next_frame + frame_us, now);
            }
            now = clock.now_us();
            std::int64_t wake = next_tick;
            if (frame_us > 0) wake = std::min(wake, next_frame);
            if (const auto due = link.next_due_us()) wake = std::min(wake, *due);
            const int timeout_ms = static_cast<int>(std::max<std::int64_t>(wake - now, 0) / 1000);
            poll(fds, nfds, timeout_ms);  // EINTR (a signal) just loops
        }
    }
};

// `screen` is given back (reset) before anything is printed.
int play_in_terminal(const Options& o, std::optional<carom::terminal::Terminal>& screen,
                     carom::play::Player& player, carom::app::UdpLink& link, const Clock& clock) {
    std::optional<carom::play::Ending> ending;
    int signal = 0;
    {
        carom::terminal::Terminal& terminal = *screen;
        const auto glyphs =
            terminal.utf8() ? carom::render::Glyphs::braille : carom::render::Glyphs::ascii;
        bool roster = false;
        Loop loop{
            player, link, clock, 1'000'000 / 60, static_cast<std::int64_t>(1'000'000.0 / o.fps),
            {},     {},   {}};
        loop.frame = [&](std::uint64_t now_ms) {
            const carom::render::Scene scene = player.scene(now_ms, roster);
            terminal.draw(
                carom::render::render(scene, terminal.width(), terminal.height(), glyphs));
        };
        loop.keys = [&](std::uint64_t now_ms) {
            using Action = carom::terminal::Key::Action;
            while (const auto k = terminal.key()) {
                const bool typed = k->kind == carom::terminal::Key::Kind::character;
                const auto key = carom::terminal::steer_key(*k);
                if (k->action == Action::release) {
                    if (key) player.release(*key);
                    continue;
                }
                if (typed && (k->ch == 'q' || k->ch == 'Q')) return false;
                if (k->action == Action::repeat && terminal.reports_releases()) continue;
                if (typed && k->ch == '\t') roster = !roster;
                if (key) player.press(*key, now_ms);
            }
            return true;
        };
        signal = loop.run();
        ending = player.ending();
    }
    screen.reset();
    const carom::play::Ending e = ending.value_or(carom::play::Ending{});
    if (signal != 0) {
        std::cerr << "carom-client: stopped by signal " << signal << "\n";
        return 128 + signal;
    }
    std::cerr << "carom-client: " << e.message << "\n";
    return e.exit_code;
}

int play_as_bot(const Options& o, carom::play::Player& player, carom::app::UdpLink& link,
                const Clock& clock) {
    bool joined = false;
    std::uint64_t joined_ms = 0;
    Loop loop{player, link, clock, 1'000'000 / 60, 0, {}, {}, {}};
    loop.done = [&](std::uint64_t now_ms) {
        if (!joined && player.connection().state() == carom::client::State::connected &&
            player.map() != nullptr) {
            joined = true;
            joined_ms = now_ms;
            const auto& s = player.connection().admission();
            spdlog::info("joined room {} slot {} on {} (map from {}) as client {}", s.room, s.slot,
                         carom::game::printable_name(s.map_name), player.map_source(), s.client_id);
            if (!player.cache_problem().empty())
                spdlog::warn("the map is not kept: {}", player.cache_problem());
        }
        return joined && o.duration_s > 0.0 &&
               static_cast<double>(now_ms - joined_ms) >= o.duration_s * 1000.0;
    };
    const int signal = loop.run();
    const auto& st = player.connection().stats();
    const carom::game::Match* m = player.match();
    const auto score = [m](carom::game::Team t) { return m != nullptr ? m->score(t) : 0U; };
    if (joined)
        spdlog::info(
            "left after {:.1f} s: {} updates ({} undecodable, {:.1f}% lost), score {}-{}; "
            "{} failed state checks, {} full states asked again, {} forged dropped, {}",
            static_cast<double>(clock.now_ms() - joined_ms) / 1000.0, st.states_taken,
            st.undecodable, st.loss_estimate() * 100.0, score(carom::game::Team::left),
            score(carom::game::Team::right), st.hash_mismatches, st.resyncs, st.forged_total(),
            player.connection().replica() != nullptr && player.connection().replica()->holds()
                ? "the match held"
                : "no match held");
    if (signal != 0) return 128 + signal;
    const carom::play::Ending e = player.ending().value_or(carom::play::Ending{});
    if (e.exit_code != 0) spdlog::error("{}", e.message);
    return e.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (const char* user = std::getenv("USER"); user != nullptr) o.name = user;
    CLI::App app{"carom-client: play carom in the terminal"};
    app.footer(
        "Keys: WASD or arrows move (two at once for a diagonal), space kicks, Tab shows the\n"
        "roster, q quits. Where the terminal reports key releases (the kitty keyboard\n"
        "protocol: kitty, foot, WezTerm, Ghostty, recent Alacritty; --keyboard auto asks it),\n"
        "a key steers exactly while it is down; elsewhere a key holds its direction for\n"
        "--hold-ms after a press and key repeat keeps it held (each repeat for --repeat-ms).\n"
        "The bottom line says which: \"keys: press+release\" or \"keys: hold window\".\n"
        "Exit codes: 0 quit or left, 1 error (no terminal...), 2 bad arguments, 3 server\n"
        "unreachable, 4 refused (full, version mismatch, bad name...), 5 kicked or timed out,\n"
        "6 the server's map refused, 128+N stopped by signal N.");
    app.add_option("server", o.server,
                   "HOST[:PORT] of the carom-server (port 27960 by default; with --token, the "
                   "token's first server)");
    app.add_option("--token", o.token_file,
                   "A connect token (carom-token make) for a server that requires one");
    app.add_option("--name", o.name, "Your name (printable ASCII, 15 characters)");
    app.add_option("--room", o.room, "Room to join (-1: the first with space)")
        ->capture_default_str();
    app.add_flag("--spectate", o.spectate, "Watch without taking a slot");
    app.add_flag("--list", o.list, "List the server's rooms (a table) and exit");
    app.add_flag("--json", o.json, "With --list: the rooms as JSON");
    app.add_flag("--bot", o.bot, "No terminal: the game's bot plays (for scripts and CI)");
    app.add_option("--duration", o.duration_s, "--bot: leave after this many seconds (0: never)")
        ->check(carom::cli::finite(0, 1e9))
        ->capture_default_str();
    app.add_option("--fps", o.fps, "Frames drawn per second")
        ->check(carom::cli::finite(1.0, 240.0))
        ->capture_default_str();
    app.add_option("--hold-ms", o.hold_ms, "How long a key press holds its direction")
        ->check(carom::cli::finite(10, 5000))
        ->capture_default_str();
    app.add_option("--repeat-ms", o.repeat_ms, "How long a repeated key (held down) holds it")
        ->check(carom::cli::finite(10, 5000))
        ->capture_default_str();
    app.add_option("--keyboard", o.keyboard,
                   "auto: key releases where the terminal speaks the kitty keyboard protocol; "
                   "kitty: that protocol without asking; legacy: presses and the hold window")
        ->check(CLI::IsMember({"auto", "kitty", "legacy"}))
        ->capture_default_str();
    app.add_flag("--ascii", o.ascii, "ASCII only, even on a UTF-8 terminal");
    app.add_option("--connect-timeout-ms", o.connect_timeout_ms,
                   "Give up when the server has not answered by then")
        ->check(carom::cli::finite(100, 600'000))
        ->capture_default_str();
    app.add_option("--map-dir", o.map_dirs, "Where to look for map files (before the defaults)");
    app.add_option("--map-cache", o.map_cache,
                   "Maps fetched from servers, kept by hash (empty: none kept)")
        ->capture_default_str();
    app.add_option("--log-level", o.log_level, "--bot: trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
        ->capture_default_str();
    app.add_option("--sim", o.sim,
                   "Simulate a bad link in each direction: loss=%,latency=ms,jitter=ms,dup=%,"
                   "reorder=%,rate=kbit/s,queue=ms,seed=N (seed default random; printed)");
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    std::optional<carom::linksim::LinkSpec> link_spec;
    if (app.count("--sim") > 0) {
        auto spec = carom::linksim::parse_link_spec(o.sim);
        if (!spec) return carom::cli::usage_error(app, "--sim: " + spec.error().message);
        link_spec = *spec;
        if (!link_spec->seed) link_spec->seed = std::random_device{}() * 0x1'0000'0001ULL;
    }

    spdlog::set_default_logger(spdlog::stderr_logger_st("carom-client"));
    spdlog::set_level(spdlog::level::from_str(o.log_level));

    std::vector<std::uint8_t> connect_token;
    if (!o.token_file.empty()) {
        auto loaded = carom::protocol::load_connect_token(o.token_file);
        if (!loaded) return carom::cli::usage_error(app, "--token " + loaded.error().message);
        connect_token = std::move(*loaded);
        if (o.server.empty())
            o.server = carom::protocol::read_connect_token(connect_token)->servers[0];
    }
    if (o.server.empty()) return carom::cli::usage_error(app, "server is required");

    std::string text = o.server;
    if (text.find(':') == std::string::npos || (text.starts_with('[') && text.ends_with(']')))
        text += ":" + std::to_string(kDefaultPort);
    const auto parsed = carom::client::parse_host_port(text);
    if (!parsed) return carom::cli::usage_error(app, parsed.error().message);

    if (o.json && !o.list) return carom::cli::usage_error(app, "--json goes with --list");
    if (!o.bot && !o.list && (isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0)) {
        std::cerr << "carom-client: not a terminal (use --bot to play without one)\n";
        return kExitError;
    }
    install_signal_handlers();
    try {
        asio::io_context io;
        carom::app::UdpLink link(io, *parsed);
        const Clock clock;
        if (link_spec) {
            // Printed before the terminal takes the screen: the run repeats with this spec.
            std::cerr << "carom-client: simulated link (each direction) "
                      << carom::linksim::to_string(*link_spec) << "\n";
            link.simulate(*link_spec, carom::linksim::derive_seed(*link_spec->seed, 0),
                          carom::linksim::derive_seed(*link_spec->seed, 1),
                          [&clock] { return clock.now_us(); });
        }
        if (o.list) {
            const auto status = carom::app::query_status(link, o.connect_timeout_ms, signalled);
            if (!status) {
                std::cerr << "carom-client: " << o.server << ": " << status.error().message << "\n";
                return kExitUnreachable;
            }
            std::cout << (o.json ? carom::client::room_json(*status, o.server)
                                 : carom::client::room_table(*status, o.server));
            return 0;
        }
        // The terminal is restored when it goes, before anything is printed.
        std::optional<carom::terminal::Terminal> terminal;
        if (!o.bot) {
            // Without --room, a server of several rooms shows them first.
            std::optional<carom::play::RoomPicker> picker;
            if (app.count("--room") == 0) {
                auto status = carom::app::query_status(link, o.connect_timeout_ms, signalled);
                if (!status) {
                    std::cerr << "carom-client: server unreachable: " << status.error().message
                              << "\n";
                    return g_signal != 0 ? 128 + g_signal : kExitUnreachable;
                }
                if (status->rooms_total > 1) picker.emplace(std::move(*status));
            }
            terminal.emplace(o.ascii, *carom::terminal::keyboard_named(o.keyboard));
            if (picker) {
                const auto choice = carom::app::pick_room(*terminal, *picker, link, o.server,
                                                          o.connect_timeout_ms, signalled);
                if (!choice) {
                    terminal.reset();
                    return g_signal != 0 ? 128 + g_signal : 0;
                }
                o.room = static_cast<std::int32_t>(choice->room);
                o.spectate = o.spectate || choice->spectate;
            }
        }
        carom::play::PlayerConfig config;
        config.connection.name = o.name;
        config.connection.room = o.room;
        config.connection.spectator = o.spectate;
        config.connection.token =
            std::random_device{}() * 0x1'0000'0001ULL ^ std::random_device{}();
        config.connection.connect_timeout_ms = o.connect_timeout_ms;
        config.connection.connect_token = std::move(connect_token);
        config.bot = o.bot;
        config.keys.hold_ms = o.hold_ms;
        config.keys.repeat_ms = o.repeat_ms;
        config.keys.releases = terminal && terminal->reports_releases();
        carom::maps::LibraryMapStore maps(carom::maps::MapLibrary(o.map_cache, map_dirs(o)));
        carom::play::Player player(config, maps,
                                   [&link](std::span<const std::uint8_t> b) { link.send(b); });
        player.start(clock.now_ms());
        if (o.bot) return play_as_bot(o, player, link, clock);
        return play_in_terminal(o, terminal, player, link, clock);
    } catch (const std::exception& e) {
        std::cerr << "carom-client: " << e.what() << "\n";
        return kExitError;
    }
}
