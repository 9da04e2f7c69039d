// carom-client-bench: what the terminal client costs and how well it
// predicts, measured against a real Server in this process over the
// simulated link of the client tests (nothing timed here is a test):
//
//   render     a frame's cost, scene → grid (the pure renderer) and
//              grid → screen (ncurses, onto a file), at 80×24 and 200×60
//   terminal   bytes ncurses writes per second while a 4 v 4 plays, at
//              30 frames a second, at the same sizes, braille and ASCII
//   predict    |drawn own position − the server's| after each input the
//              server applied (p50, p95, p99, max) and the corrections the
//              eye sees per minute, 4 v 4 over 100 ms round trip, 5 % loss
//   forged     what forged server datagrams cost a playing client, each
//              kind against the server's own update (forged.cpp)
//
// The figures are in docs/client.md ("Figures"), with this command.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "carom/cli/cli.hpp"
#include "carom/loopback/prediction_probe.hpp"
#include "carom/render/render.hpp"
#include "carom/terminal/terminal.hpp"
#include "forged.hpp"

namespace {

using carom::play::test::ClientSide;
using carom::play::test::LinkConfig;
using carom::play::test::LossyWorld;
using carom::play::test::ServerSide;
using Clock = std::chrono::steady_clock;

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

double micros(Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

struct DrawFigures {
    std::vector<double> render_us;  // scene → grid
    std::vector<double> screen_us;  // grid → screen (ncurses diff and write)
    long bytes = 0;
    double seconds = 0.0;
};

// A 4 v 4 on the arena (the player's bot and seven server bots),
// drawn at 30 frames a second of simulated time on a width × height screen
// that ncurses writes into a temporary file.
DrawFigures draw_run(int width, int height, bool utf8, double seconds, std::uint64_t seed) {
    LinkConfig c;
    c.rtt_ms = 100.0;
    c.loss = 0.05;
    c.bots = true;
    c.bot_client = true;
    c.seed = seed;
    LossyWorld w(c);
    std::FILE* out = std::tmpfile();
    std::FILE* in = std::fopen("/dev/null", "r");
    if (out == nullptr || in == nullptr) throw std::runtime_error("cannot open the counting files");
    DrawFigures f;
    {
        carom::terminal::Terminal screen(out, in, "xterm-256color", utf8, width, height);
        const carom::render::Glyphs glyphs =
            utf8 ? carom::render::Glyphs::braille : carom::render::Glyphs::ascii;
        std::int64_t next_frame = 0;
        long bytes_at_start = -1;
        const auto until = static_cast<std::int64_t>(seconds * 1e6);
        // The first two seconds (joining, the first full screen) are not counted.
        constexpr std::int64_t kWarmUpUs = 2'000'000;
        w.run(kWarmUpUs + until, {}, {}, [&] {
            if (w.now_us() < next_frame) return;
            next_frame += 1'000'000 / 30;
            const carom::render::Scene scene = w.player().scene(w.now_ms(), false);
            const auto a = Clock::now();
            const carom::render::Grid grid = carom::render::render(scene, width, height, glyphs);
            const auto b = Clock::now();
            screen.draw(grid);
            const auto e = Clock::now();
            if (w.now_us() < kWarmUpUs) return;
            if (bytes_at_start < 0) {
                std::fflush(out);
                bytes_at_start = std::ftell(out);
            }
            f.render_us.push_back(micros(b - a));
            f.screen_us.push_back(micros(e - b));
        });
        std::fflush(out);
        f.bytes = std::ftell(out) - std::max(bytes_at_start, 0L);
        f.seconds = seconds;
    }
    std::fclose(out);
    std::fclose(in);
    return f;
}

struct PredictFigures {
    std::vector<double> errors;
    std::uint64_t visible = 0;
    std::uint64_t snaps = 0;
    std::uint64_t frames = 0;
    std::uint64_t corrections = 0;
    double minutes = 0.0;
};

void predict_run(double seconds, std::uint64_t seed, bool ghosts,
                 const carom::client::SendPolicyConfig& send, PredictFigures& into) {
    LinkConfig c;
    c.send = send;
    c.ghosts = ghosts;
    c.rtt_ms = 100.0;
    c.loss = 0.05;
    c.bots = true;
    c.bot_client = true;
    c.seed = seed;
    LossyWorld w(c);
    ServerSide server(w);
    ClientSide client;
    w.run(
        static_cast<std::int64_t>(seconds * 1e6), [&] { server.after_tick(); },
        [&] { client.after_tick(w.player()); });
    for (const auto& [sequence, applied] : server.applied()) {
        const auto d = client.drawn.find(sequence);
        if (d != client.drawn.end())
            into.errors.push_back(carom::physics::length(d->second - applied.position));
    }
    const carom::play::PredictorStats& s = w.player().predictor()->stats();
    into.visible += s.visible;
    into.snaps += s.snaps;
    into.frames += s.frames;
    into.corrections += s.corrections;
    into.minutes += seconds / 60.0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"carom-client-bench: the terminal client's costs and prediction, measured"};
    double seconds = 60.0;
    std::vector<std::uint64_t> seeds{1, 2, 3};
    app.add_option("--seconds", seconds, "simulated seconds of play per run")
        ->check(carom::cli::finite(5.0, 170.0));
    app.add_option("--seeds", seeds,
                   "server and link seeds; predict runs each, draw runs the first");
    bool ghosts = false;
    bool forged_only = false;
    bool predict_only = false;
    carom::client::SendPolicyConfig send;
    app.add_flag("--every-tick", send.every_tick,
                 "the client sends every tick's input (the protocol before sending by need)");
    app.add_option("--ack-ticks", send.ack_ticks,
                   "without a change, acknowledge at most every this many ticks")
        ->check(CLI::Range(1, 600));
    app.add_option("--change-ticks", send.change_ticks,
                   "ticks an input change goes out on: its own and copies on the next")
        ->check(CLI::Range(1, 8));
    app.add_flag("--predict-only", predict_only, "only the prediction's figures");
    app.add_flag("--forged-only", forged_only, "only the forged datagrams' costs");
    app.add_flag("--ghosts", ghosts,
                 "predict the other players as ghosts (not stepped with their held inputs)");
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    spdlog::set_level(spdlog::level::warn);  // the in-process server's joins and matches
    if (forged_only) {
        carom::client::bench::print_forged_costs();
        return 0;
    }

    fmt::print(
        "carom-client-bench: 4 v 4 on arena, 30 frames/s, {:.0f} s of play per run, "
        "link 100 ms round trip, 5 % loss; seeds",
        seconds);
    for (const std::uint64_t s : seeds)
        fmt::print(" {}", s);
    fmt::print("\n\n{:<16} {:>10} {:>10} {:>10} {:>10} {:>12}\n", "screen", "render p50", "p99",
               "screen p50", "p99", "terminal");
    for (const auto& [w, h] : {std::pair{80, 24}, std::pair{200, 60}}) {
        if (predict_only) break;
        for (const bool utf8 : {true, false}) {
            const DrawFigures f = draw_run(w, h, utf8, seconds, seeds.front());
            fmt::print("{:<16} {:>7.1f} us {:>7.1f} us {:>7.1f} us {:>7.1f} us {:>7.1f} kB/s\n",
                       fmt::format("{}x{} {}", w, h, utf8 ? "braille" : "ascii"),
                       quantile(f.render_us, 0.5), quantile(f.render_us, 0.99),
                       quantile(f.screen_us, 0.5), quantile(f.screen_us, 0.99),
                       static_cast<double>(f.bytes) / 1000.0 / f.seconds);
        }
    }

    PredictFigures p;
    for (const std::uint64_t s : seeds)
        predict_run(seconds, s, ghosts, send, p);
    fmt::print("\nprediction ({}): |drawn own − server's| after each applied input, {} inputs\n",
               ghosts ? "the others as ghosts" : "the others holding their inputs",
               p.errors.size());
    fmt::print("  p50 {:.4f}  p95 {:.4f}  p99 {:.3f}  max {:.2f} units (a disk's radius is 2)\n",
               quantile(p.errors, 0.5), quantile(p.errors, 0.95), quantile(p.errors, 0.99),
               quantile(p.errors, 1.0));
    fmt::print(
        "  frames {}: {} corrected; visible corrections (> 0.5 unit) {:.1f}/min, snaps (> 4 units) "
        "{:.1f}/min\n",
        p.frames, p.corrections, static_cast<double>(p.visible) / p.minutes,
        static_cast<double>(p.snaps) / p.minutes);
    if (!predict_only) carom::client::bench::print_forged_costs();
    return 0;
}
