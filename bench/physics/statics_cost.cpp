#include "physics/statics_cost.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "carom/physics/world.hpp"

namespace carom::bench {
namespace {

using Clock = std::chrono::steady_clock;
using physics::Vec2;

struct StaticsOptions {
    std::vector<std::size_t> counts{1000, 10000, 200000};
    std::uint32_t steps = 300;
};

double us_since(Clock::time_point t) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
}

// `count` boxes from x = 5000 on, where no disk goes: abutting in rows of
// 64 (long collinear runs), or at random, overlapping, rotated.
physics::World world_with(std::size_t count, bool overlapping) {
    physics::World w;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double side = 30.0 * std::sqrt(static_cast<double>(count));
    for (std::size_t i = 0; i < count; ++i) {
        physics::BoxDef b;
        if (overlapping) {
            const double angle = u(rng) * 3.14159;
            b.box = {{5000.0 + u(rng) * side, u(rng) * side},
                     {5.0 + 10.0 * u(rng), 5.0 + 10.0 * u(rng)},
                     {std::cos(angle), std::sin(angle)}};
        } else {
            b.box = {
                {5000.0 + static_cast<double>(i % 64) * 20.0, static_cast<double>(i / 64) * 20.0},
                {10.0, 10.0},
                {1.0, 0.0}};
        }
        w.create_box(b);
    }
    // 24 disks in play, bouncing in a box of their own.
    for (const auto& [c, h] :
         {std::pair{Vec2{100, -10}, Vec2{110, 10}}, std::pair{Vec2{100, 210}, Vec2{110, 10}},
          std::pair{Vec2{-10, 100}, Vec2{10, 110}}, std::pair{Vec2{210, 100}, Vec2{10, 110}}}) {
        physics::BoxDef wall;
        wall.box = {c, h, {1.0, 0.0}};
        w.create_box(wall);
    }
    for (int i = 0; i < 24; ++i) {
        physics::DiskDef d;
        d.position = {20.0 + (i % 6) * 30.0, 20.0 + (i / 6) * 40.0};
        d.velocity = {60.0 * u(rng) - 30.0, 60.0 * u(rng) - 30.0};
        d.radius = 4.0;
        w.create_disk(d);
    }
    return w;
}

void run_statics(const StaticsOptions& o) {
    fmt::print("static boxes far from play, 24 disks moving ({} steps after the first)\n", o.steps);
    fmt::print("{:<12} {:>8} {:>11} {:>12} {:>10} {:>10} {:>15} {:>13}\n", "layout", "boxes",
               "build (ms)", "digest (ms)", "step (us)", "max (us)", "hash streamed",
               "hash folded");
    for (const bool overlapping : {false, true}) {
        for (const std::size_t count : o.counts) {
            physics::World w = world_with(count, overlapping);
            auto t = Clock::now();
            w.step();  // builds the static grid and the seams
            const double build_ms = us_since(t) / 1000.0;
            t = Clock::now();
            std::uint64_t sink = w.statics_digest();  // computed once, then kept
            const double digest_ms = us_since(t) / 1000.0;
            double step_us = 0.0, max_us = 0.0, streamed_us = 0.0, folded_us = 0.0;
            for (std::uint32_t s = 0; s < o.steps; ++s) {
                t = Clock::now();
                w.step();
                const double one = us_since(t);
                step_us += one;
                max_us = std::max(max_us, one);
                t = Clock::now();
                sink ^= w.moving_hash() ^ w.statics_digest();
                folded_us += us_since(t);
                if (s % 30 == 0) {  // the streamed hash is slow with many boxes: sampled
                    t = Clock::now();
                    sink ^= w.state_hash();
                    streamed_us += us_since(t) * 30.0;
                }
            }
            const double n = o.steps;
            fmt::print(
                "{:<12} {:>8} {:>11.1f} {:>12.1f} {:>10.2f} {:>10.1f} {:>15.1f} {:>13.2f}{}\n",
                overlapping ? "overlapping" : "abutting", count, build_ms, digest_ms, step_us / n,
                max_us, streamed_us / n, folded_us / n, sink == 42 ? " " : "");
        }
    }
}

}  // namespace

void add_statics_command(CLI::App& app) {
    auto o = std::make_shared<StaticsOptions>();
    CLI::App* cmd = app.add_subcommand(
        "statics", "World build, step and state hash against the number of static boxes");
    cmd->add_option("--counts", o->counts, "Box counts")->capture_default_str();
    cmd->add_option("--steps", o->steps, "Steps timed after the first")->capture_default_str();
    cmd->callback([o] { run_statics(*o); });
}

}  // namespace carom::bench
