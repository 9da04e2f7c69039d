// carom-bench: benchmarks of carom's components, one subcommand each.
#include <CLI/CLI.hpp>

#include "capi/command.hpp"
#include "carom/cli/cli.hpp"
#include "physics/command.hpp"
#include "physics/statics_cost.hpp"
#include "replay/command.hpp"
#include "replay/hash_cost.hpp"
#ifdef CAROM_BENCH_SEEK
#include "replay/seek.hpp"
#endif
#include "server/command.hpp"

int main(int argc, char** argv) {
    CLI::App app{"carom benchmarks"};
    app.require_subcommand(1);
    carom::bench::add_physics_command(app);
    carom::bench::add_statics_command(app);
    carom::bench::add_replay_command(app);
    carom::bench::add_hash_command(app);
#ifdef CAROM_BENCH_SEEK
    carom::bench::add_seek_command(app);
#endif
    carom::bench::add_server_command(app);
    carom::bench::add_capi_command(app);
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    return 0;
}
