#include "physics/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <string>

#include <fmt/format.h>

#include "json_line.hpp"

namespace carom::bench {
namespace {

constexpr std::string_view kCaromEngine = "carom";
constexpr std::string_view kBox2dEngine = "box2d";
constexpr std::string_view kChipmunkPrefix = "chipmunk";

std::string row_notes(const Measurement& m) {
    std::string notes = m.engine_fp_matches ? "" : "ENGINE STATE != SCENE FINGERPRINT";
    if (!m.notes.empty()) notes += (notes.empty() ? "" : "; ") + m.notes;
    return notes;
}

void flush() {
    std::fflush(stdout);
}

}  // namespace

void print_table_preamble(std::span<const EngineEntry> engines, const RunSettings& settings) {
    fmt::print(
        "carom-bench physics: disks in a walled [0, {0}]^2 arena, no gravity, restitution 1, "
        "friction 0, dt 1/60, {1} warm-up + {2} timed steps, seed {3}\n",
        kArenaSize, settings.warmup_steps, settings.timed_steps, kSeed);
    std::set<std::string> described;  // the two Chipmunk rows share a description
    for (const EngineEntry& engine : engines) {
        if (described.insert(engine.description).second) {
            fmt::print("  {}\n", engine.description);
        }
    }
    const bool any_peer = std::any_of(engines.begin(), engines.end(),
                                      [](const EngineEntry& e) { return e.name != kCaromEngine; });
    if (any_peer) {
        fmt::print(
            "  note: Debian's libbox2d and libchipmunk are built with assertions enabled (no "
            "NDEBUG), which slows them down somewhat\n");
    }
    fmt::print(
        "  turns: the engines of a scene take turns of {} timed steps each, so that a slow "
        "stretch of the machine falls on all of them\n",
        settings.block_steps);
    fmt::print(
        "  us/step: mean over the timed steps; ke_ratio: kinetic energy at the end / at the "
        "start; escaped: centres outside the arena at the end\n\n");
    fmt::print("{:<16} {:>6} {:>6} {:>10} {:>10} {:>7} {:>9}  {:<16}  {}\n", "engine", "layout",
               "n", "us/step", "ke_ratio", "escaped", "max_speed", "scene_fp", "notes");
    flush();
}

void print_table_scene(const Scene& scene) {
    double min_radius = std::numeric_limits<double>::infinity();
    double max_radius = 0.0;
    for (const DiskSpec& disk : scene.disks) {
        min_radius = std::fmin(min_radius, disk.radius);
        max_radius = std::fmax(max_radius, disk.radius);
    }
    fmt::print("-- {} n={}: pitch {:.6g}, radii drawn {:.3f}..{:.3f}\n", to_string(scene.layout),
               scene.disks.size(), scene.pitch, min_radius, max_radius);
    flush();
}

void print_table_row(const Measurement& m) {
    fmt::print("{:<16} {:>6} {:>6} {:>10.1f} {:>10.6f} {:>7} {:>9.1f}  {:016x}  {}\n", m.engine,
               to_string(m.layout), m.disk_count, m.us_per_step, m.ke_ratio, m.escaped, m.max_speed,
               m.scene_fp, row_notes(m));
    flush();
}

void print_table_ratios(std::span<const Measurement> scene_rows) {
    const Measurement* carom = nullptr;
    const Measurement* box2d = nullptr;
    const Measurement* best_chipmunk = nullptr;
    for (const Measurement& m : scene_rows) {
        if (m.engine == kCaromEngine) carom = &m;
        if (m.engine == kBox2dEngine) box2d = &m;
        if (m.engine.starts_with(kChipmunkPrefix) &&
            (best_chipmunk == nullptr || m.us_per_step < best_chipmunk->us_per_step)) {
            best_chipmunk = &m;
        }
    }
    if (carom == nullptr || (box2d == nullptr && best_chipmunk == nullptr)) return;

    std::string line = "   carom time /";
    if (best_chipmunk != nullptr) {
        line += fmt::format(" {} (best chipmunk): {:.2f}x", best_chipmunk->engine,
                            carom->us_per_step / best_chipmunk->us_per_step);
    }
    if (box2d != nullptr) {
        line += fmt::format("{} box2d: {:.2f}x", best_chipmunk != nullptr ? "," : "",
                            carom->us_per_step / box2d->us_per_step);
    }
    fmt::print("{}\n", line);
    flush();
}

void print_json_measurement(const Measurement& m, const Scene& scene, const RunSettings& settings) {
    print_json_line({
        {"engine", m.engine},
        {"scene", "arena"},
        {"layout", to_string(m.layout)},
        {"n", m.disk_count},
        {"pitch", scene.pitch},
        {"warmup", settings.warmup_steps},
        {"steps", settings.timed_steps},
        {"block", settings.block_steps},
        {"us_per_step", rounded(m.us_per_step, 3)},
        {"ke_ratio", m.ke_ratio},
        {"escaped", m.escaped},
        {"max_speed", m.max_speed},
        {"scene_fp", fmt::format("{:016x}", m.scene_fp)},
        {"engine_fp_matches", m.engine_fp_matches},
        {"notes", m.notes},
    });
}

}  // namespace carom::bench
