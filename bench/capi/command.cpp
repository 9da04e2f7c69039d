#include "capi/command.hpp"

#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "capi/step_rates.hpp"
#include "json_line.hpp"

namespace carom::bench {
namespace {

// RocketSim's own figure (its README: about 20 minutes of two-car game time
// a second): a different game, quoted for scale, not measured here.
constexpr double kRocketSimTicksPerSecond = 144'000;

void print_table(const StepSettings& s, const StepRates& r) {
    fmt::print("4 v 4 on {}, one core, {} rounds of {:.2f} s per variant (alternating)\n",
               std::filesystem::path(s.map_path).filename().string(), s.rounds, s.seconds);
    fmt::print("  {:<46} {:>10} {:>8} {:>15}\n", "variant", "ticks/s", "vs C++", "(quartiles)");
    const auto row = [](const std::string& name, const VariantRate& v) {
        fmt::print("  {:<46} {:>10.0f} {:>8.3f} {:>7.3f}-{:<7.3f}\n", name, v.ticks_per_s, v.vs_cpp,
                   v.vs_cpp_q1, v.vs_cpp_q3);
    };
    row("C++ game::Match::step, a tick a call", r.cpp);
    row("C ABI carom_match_step, a tick a call", r.capi_tick);
    row(fmt::format("C ABI carom_match_step, {} ticks a call", s.ticks_per_call), r.capi_held);
    row(fmt::format("C ABI carom_matches_step, {} matches x {} ticks", s.matches, s.ticks_per_call),
        r.capi_batch);
    fmt::print("  C ABI cost over the C++ step (a tick a call): {:+.1f} %\n",
               100.0 * (1.0 / r.capi_tick.vs_cpp - 1.0));
    fmt::print(
        "  C++: {:.0f} s of 4 v 4 play a second ({:.0f} min); RocketSim's README quotes "
        "{:.0f} ticks/s (20 min of two-car play) for its own game\n",
        r.cpp.ticks_per_s / 60.0, r.cpp.ticks_per_s / 3600.0, kRocketSimTicksPerSecond);
}

void print_json(const StepSettings& s, const StepRates& r) {
    JsonLine line;
    line["bench"] = "capi";
    line["map"] = std::filesystem::path(s.map_path).filename().string();
    line["rounds"] = s.rounds;
    line["seconds"] = s.seconds;
    line["ticks_per_call"] = s.ticks_per_call;
    line["matches"] = s.matches;
    const auto put = [&line](const char* name, const VariantRate& v) {
        line[name] = {{"ticks_per_s", rounded(v.ticks_per_s, 0)},
                      {"vs_cpp", rounded(v.vs_cpp, 4)},
                      {"vs_cpp_q1", rounded(v.vs_cpp_q1, 4)},
                      {"vs_cpp_q3", rounded(v.vs_cpp_q3, 4)}};
    };
    put("cpp", r.cpp);
    put("capi_tick", r.capi_tick);
    put("capi_held", r.capi_held);
    put("capi_batch", r.capi_batch);
    print_json_line(line);
}

}  // namespace

void add_capi_command(CLI::App& app) {
    auto settings = std::make_shared<StepSettings>();
    auto json = std::make_shared<bool>(false);
    settings->map_path = (std::filesystem::path(CAROM_SOURCE_DIR) / "shared/game/maps/arena.json");
    CLI::App* cmd = app.add_subcommand(
        "capi", "A 4 v 4 stepped through libcarom's C ABI against the C++ step, in one run");
    cmd->add_option("--map", settings->map_path, "A 4 v 4 map file")->capture_default_str();
    cmd->add_option("--seconds", settings->seconds, "Per variant and round")->capture_default_str();
    cmd->add_option("--rounds", settings->rounds, "Rounds (the variants alternate)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd->add_option("--ticks-per-call", settings->ticks_per_call)
        ->check(CLI::Range(1, 600))
        ->capture_default_str();
    cmd->add_option("--matches", settings->matches, "Matches per carom_matches_step call")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    cmd->add_flag("--json", *json, "One JSON object on stdout");
    cmd->callback([settings, json] {
        const StepRates rates = measure_step_rates(*settings);
        if (*json) {
            print_json(*settings, rates);
        } else {
            print_table(*settings, rates);
        }
    });
}

}  // namespace carom::bench
