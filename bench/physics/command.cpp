#include "physics/command.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "physics/engine.hpp"
#include "physics/report.hpp"
#include "physics/run.hpp"
#include "physics/scene.hpp"

namespace carom::bench {
namespace {

struct PhysicsOptions {
    std::vector<std::size_t> disk_counts{1000, 4000, 16000};
    std::vector<std::string> layouts{"sparse", "dense"};
    std::vector<std::string> engines;  // empty: all
    RunSettings run;
    bool json = false;
};

Layout parse_layout(const std::string& name) {
    return name == "dense" ? Layout::dense : Layout::sparse;
}

bool selected(const std::vector<std::string>& names, std::string_view name) {
    return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

int run_physics(const PhysicsOptions& options) {
    std::vector<EngineEntry> engines = all_engines();
    std::erase_if(engines,
                  [&](const EngineEntry& e) { return !selected(options.engines, e.name); });

    if (!options.json) print_table_preamble(engines, options.run);
    bool all_fingerprints_match = true;
    for (const std::string& layout_name : options.layouts) {
        for (const std::size_t disk_count : options.disk_counts) {
            const Scene scene = make_arena_scene(parse_layout(layout_name), disk_count);
            if (!options.json) print_table_scene(scene);
            const std::vector<Measurement> rows = measure(engines, scene, options.run);
            for (const Measurement& row : rows) {
                all_fingerprints_match = all_fingerprints_match && row.engine_fp_matches;
                if (options.json) {
                    print_json_measurement(row, scene, options.run);
                } else {
                    print_table_row(row);
                }
            }
            if (!options.json) print_table_ratios(rows);
        }
    }
    return all_fingerprints_match ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace

void add_physics_command(CLI::App& app) {
    // Shared with the callback, which runs after app.parse() has filled it in.
    auto options = std::make_shared<PhysicsOptions>();
    CLI::App* command = app.add_subcommand(
        "physics", "carom's physics core against Box2D and Chipmunk on N disks in a walled arena");

    std::vector<std::string> engine_names;
    for (const EngineEntry& engine : all_engines())
        engine_names.emplace_back(engine.name);

    command->add_option("--n", options->disk_counts, "Disk counts (repeatable or comma-separated)")
        ->delimiter(',')
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    command->add_option("--layout", options->layouts, "Layouts to run")
        ->delimiter(',')
        ->check(CLI::IsMember({"sparse", "dense"}))
        ->capture_default_str();
    command->add_option("--engine", options->engines, "Engines to run (default: all)")
        ->delimiter(',')
        ->check(CLI::IsMember(engine_names));
    command->add_option("--steps", options->run.timed_steps, "Timed steps")->capture_default_str();
    command->add_option("--warmup", options->run.warmup_steps, "Untimed steps before timing")
        ->capture_default_str();
    command
        ->add_option("--block", options->run.block_steps,
                     "Timed steps each engine runs before the next takes its turn")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    command->add_flag("--json", options->json, "One JSON object per line instead of a table");

    command->callback([options] {
        const int status = run_physics(*options);
        if (status != EXIT_SUCCESS) throw CLI::RuntimeError(status);
    });
}

}  // namespace carom::bench
