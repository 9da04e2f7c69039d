// carom-bench seek: how long the replay viewer takes to show a point of a
// match (seek engine + the frame composed by the renderer, 100 x 32), over
// random points and the worst points (the tick before each keyframe, the
// longest re-simulation) of every file; and the CPU it spends playing a whole
// match at 16x, 30 frames a second (terminal output excluded).
#include "replay/seek.hpp"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "carom/replay_view/control.hpp"
#include "cast.hpp"
#include "replay/load.hpp"

namespace carom::bench {
namespace {

constexpr int kWidth = 100;
constexpr int kHeight = 32;
constexpr double kFps = 30.0;
constexpr double kSpeed = 16.0;

struct SeekOptions {
    std::vector<std::string> files;  // empty: every replays/corpus/*.crpl
    int seeks = 400;
    std::uint64_t seed = 1;
    bool json = false;
};

std::vector<std::string> corpus() {
    std::filesystem::path dir = "replays/corpus";
    if (!std::filesystem::exists(dir))
        dir = std::filesystem::path(CAROM_SOURCE_DIR) / "replays/corpus";
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".crpl") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct FileFigures {
    std::vector<double> seek_ms;   // seek alone
    std::vector<double> shown_ms;  // seek + the frame composed
    double play_cpu_s = 0.0;       // playing the whole file at 16x
    double play_wall_s = 0.0;      // how long that playback lasts on screen
    std::uint64_t frames = 0;
};

FileFigures measure(const replay::Replay& r, const SeekOptions& o) {
    using Clock = std::chrono::steady_clock;
    FileFigures f;
    tool::SeekEngine engine(r);
    const tool::ViewOptions view;
    tool::Playback playback;
    playback.length = tool::timeline_length(r);
    playback.help = tool::kViewerHelp;

    std::vector<std::uint64_t> targets;
    std::mt19937_64 rng(o.seed);
    std::uniform_int_distribution<std::uint64_t> any(0, r.last_tick());
    for (int i = 0; i < o.seeks; ++i)
        targets.push_back(any(rng));
    for (const replay::Keyframe& k : r.keyframes)
        if (k.state.tick > 0) targets.push_back(k.state.tick - 1);
    std::shuffle(targets.begin(), targets.end(), rng);
    for (const std::uint64_t t : targets) {
        const auto a = Clock::now();
        if (Status sought = engine.seek(t); !sought)
            throw std::runtime_error("seek bench: " + sought.error().message);
        const auto b = Clock::now();
        playback.position = t;
        const render::Grid g = tool::compose(engine, view, playback, kWidth, kHeight);
        const auto c = Clock::now();
        if (g.width() != kWidth) throw std::logic_error("frame of the wrong size");
        f.seek_ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
        f.shown_ms.push_back(std::chrono::duration<double, std::milli>(c - a).count());
    }

    // Playback at 16x: what play's loop does each frame (advance, seek, compose).
    tool::SeekEngine player(r);
    tool::PlaybackControl control(player, playback.length, 0);
    for (int i = 0; i < 6; ++i)
        control.press(tool::ViewKey::faster);
    if (control.speed() != kSpeed) throw std::logic_error("16x is not the top speed");
    const double cpu0 = cpu_seconds();
    while (control.position() < control.length()) {
        control.advance(1.0 / kFps);
        if (Status sought = player.seek(control.match_tick()); !sought)
            throw std::runtime_error("seek bench: " + sought.error().message);
        playback.position = control.position();
        playback.speed = control.speed();
        const render::Grid g = tool::compose(player, view, playback, kWidth, kHeight);
        f.frames += static_cast<std::uint64_t>(g.height() > 0);
    }
    f.play_cpu_s = cpu_seconds() - cpu0;
    f.play_wall_s = static_cast<double>(f.frames) / kFps;
    return f;
}

int run_seek(const SeekOptions& o) {
    const std::vector<std::string> files = o.files.empty() ? corpus() : o.files;
    if (!o.json)
        fmt::print(
            "seek: {} random points + the tick before every keyframe per file, seed {}; "
            "shown = seek + frame composed at {}x{}; play = CPU at {}x, {} fps, terminal "
            "output excluded\n{:<28} {:>7} {:>7} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9}\n",
            o.seeks, o.seed, kWidth, kHeight, kSpeed, kFps, "file", "ticks", "seeks", "seek p50",
            "seek p99", "seek max", "shown p99", "shown max", "play CPU");
    for (const std::string& path : files) {
        const auto loaded = load_replay(path);
        if (!loaded) {
            fmt::print(stderr, "carom-bench seek: {}\n", loaded.error().message);
            return 1;
        }
        const LoadedReplay& file = *loaded;
        const FileFigures f = measure(file.replay, o);
        const double cpu_pct = 100.0 * f.play_cpu_s / f.play_wall_s;
        const double s50 = percentile(f.seek_ms, 0.5);
        const double s99 = percentile(f.seek_ms, 0.99);
        const double smax = *std::max_element(f.seek_ms.begin(), f.seek_ms.end());
        const double v99 = percentile(f.shown_ms, 0.99);
        const double vmax = *std::max_element(f.shown_ms.begin(), f.shown_ms.end());
        if (o.json) {
            fmt::print(
                "{{\"file\":\"{}\",\"ticks\":{},\"seeks\":{},\"seek_ms_p50\":{:.3f},\"seek_ms_"
                "p99\":{:.3f},"
                "\"seek_ms_max\":{:.3f},\"shown_ms_p99\":{:.3f},\"shown_ms_max\":{:.3f},"
                "\"play_16x_cpu_percent\":{:.2f}}}\n",
                path, file.replay.last_tick(), f.seek_ms.size(), s50, s99, smax, v99, vmax,
                cpu_pct);
        } else {
            fmt::print(
                "{:<28} {:>7} {:>7} {:>6.2f} ms {:>6.2f} ms {:>6.2f} ms {:>7.2f} ms {:>7.2f} ms "
                "{:>8.1f}%\n",
                std::filesystem::path(path).filename().string(), file.replay.last_tick(),
                f.seek_ms.size(), s50, s99, smax, v99, vmax, cpu_pct);
        }
    }
    return 0;
}

}  // namespace

void add_seek_command(CLI::App& app) {
    auto options = std::make_shared<SeekOptions>();
    CLI::App* command = app.add_subcommand(
        "seek", "Replay viewer: seek latency (p50, p99, worst) and CPU at 16x, over the corpus");
    command
        ->add_option("--file", options->files,
                     "Replay files (repeatable; default: every corpus file)")
        ->check(CLI::ExistingFile);
    command->add_option("--seeks", options->seeks, "Random points per file")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    command->add_option("--seed", options->seed, "Seed of the random points")
        ->capture_default_str();
    command->add_flag("--json", options->json, "One JSON object per file instead of a table");
    command->callback([options] {
        if (run_seek(*options) != 0) throw CLI::RuntimeError(1);
    });
}

}  // namespace carom::bench
