#include "replay/command.hpp"

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "replay/load.hpp"
#include "replay/report.hpp"
#include "replay/size.hpp"
#include "replay/verify_speed.hpp"

namespace carom::bench {
namespace {

// The bot-driven 4 v 4 match on the arena map.
constexpr const char* kDefaultFile = "replays/corpus/team-arena.crpl";

struct ReplayOptions {
    std::vector<std::string> files;  // empty: kDefaultFile
    VerifySettings verify;
    bool json = false;
};

// The default file from the working directory, else from the source tree, so
// the benchmark also runs from the build directory.
std::string default_file() {
    if (std::filesystem::exists(kDefaultFile)) return kDefaultFile;
    const std::filesystem::path in_tree = std::filesystem::path(CAROM_SOURCE_DIR) / kDefaultFile;
    return std::filesystem::exists(in_tree) ? in_tree.string() : kDefaultFile;
}

// Both measurements of one file; false if it did not verify.
bool bench_file(const LoadedReplay& file, const ReplayOptions& options) {
    const std::string& path = file.path;
    if (!options.json) print_table_file(file);

    const VerifySpeed speed = measure_verify(file.replay, options.verify);
    if (options.json) {
        print_json_verify(file, speed, options.verify);
    } else {
        print_table_verify(speed);
    }

    const SizeFigures size{measure_bytes(file.bytes), player_ticks(file.replay)};
    if (size.bytes.total() != file.bytes.size())
        throw std::logic_error(path + ": bytes counted do not add up to the file size");
    const std::uint64_t resimulated = player_ticks_resimulated(file.replay);
    if (resimulated != size.player_ticks) {
        throw std::runtime_error(
            fmt::format("{}: {} player-ticks from the header and roster, {} from re-simulating",
                        path, size.player_ticks, resimulated));
    }
    if (options.json) {
        print_json_size(file, size);
    } else {
        print_table_size(size);
    }
    return speed.verified;
}

int run_replay(const ReplayOptions& options) {
    const std::vector<std::string> files =
        options.files.empty() ? std::vector<std::string>{default_file()} : options.files;
    if (!options.json) print_table_preamble(options.verify);
    bool all_ok = true;
    const auto failed = [&all_ok](const std::string& why) {
        std::fflush(stdout);
        fmt::print(stderr, "carom-bench replay: {}\n", why);
        all_ok = false;
    };
    for (const std::string& path : files) {
        const auto file = load_replay(path);
        if (!file) {
            failed(file.error().message);
            continue;
        }
        try {
            all_ok = bench_file(*file, options) && all_ok;
        } catch (const std::exception& e) {
            failed(e.what());  // the file and the library disagree: see bench_file
        }
    }
    return all_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace

void add_replay_command(CLI::App& app) {
    // Shared with the callback, which runs after app.parse() has filled it in.
    auto options = std::make_shared<ReplayOptions>();
    CLI::App* command = app.add_subcommand(
        "replay", "replay::verify speed and replay size (input stream per player-minute)");

    command
        ->add_option("--file", options->files,
                     fmt::format("Replay files (repeatable; default: {})", kDefaultFile))
        ->check(CLI::ExistingFile);
    command->add_option("--runs", options->verify.timed_runs, "Timed verify runs per file")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    command
        ->add_option("--warmup", options->verify.warmup_runs, "Untimed verify runs before timing")
        ->capture_default_str();
    command->add_flag("--json", options->json, "One JSON object per line instead of a table");

    command->callback([options] {
        const int status = run_replay(*options);
        if (status != EXIT_SUCCESS) throw CLI::RuntimeError(status);
    });
}

}  // namespace carom::bench
