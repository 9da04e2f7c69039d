#include "server/command.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "server/bandwidth.hpp"
#include "server/capacity.hpp"
#include "server/datagram_cost.hpp"
#include "server/latency.hpp"
#include "server/link_report.hpp"
#include "server/options.hpp"

namespace carom::bench {
namespace {

int run_server_bench(const ServerOptions& o) {
    spdlog::set_level(spdlog::level::warn);  // the rooms log every match they start
    const auto want = [&](const char* part) {
        return o.only.empty() || std::find(o.only.begin(), o.only.end(), part) != o.only.end();
    };
    if (want("link")) report_link(o);
    std::vector<std::uint16_t> sizes;
    // The datagram cost sends the sizes of the delta run: it runs when either part is wanted.
    const Bandwidth delta =
        want("bandwidth") || want("datagram") ? measure_bandwidth(true, 3600, &sizes) : Bandwidth{};
    if (want("bandwidth")) print_bandwidth(delta, measure_bandwidth(false, 3600, nullptr), o.json);
    if (want("capacity")) {
        if (!o.json) print_capacity_heading(o.ticks);
        for (std::uint32_t n : o.clients)
            print_capacity(measure_capacity(n, o.ticks), o.json);
    }
    if (want("latency")) {
        for (std::uint32_t rate : {30U, 60U})
            print_latency(measure_latency(LatencyInput::every_tick, rate, o.latency_seconds),
                          o.latency_seconds, o.json);
        // A change comes every 6 to 11 ticks: three times as long for as many samples.
        for (const LatencyInput input :
             {LatencyInput::after_quiet, LatencyInput::after_quiet_cushioned})
            print_latency(measure_latency(input, 60, 3 * o.latency_seconds), 3 * o.latency_seconds,
                          o.json);
    }
    if (want("datagram")) print_datagram_cost(measure_datagram_cost(sizes), o.json);
    return EXIT_SUCCESS;
}

}  // namespace

void add_server_command(CLI::App& app) {
    auto options = std::make_shared<ServerOptions>();
    CLI::App* command = app.add_subcommand(
        "server", "Server bandwidth (delta vs full), capacity curve, datagram send cost");
    command->add_option("--clients", options->clients, "Client counts of the capacity curve")
        ->capture_default_str();
    command->add_option("--ticks", options->ticks, "Timed ticks per capacity point")
        ->capture_default_str();
    command
        ->add_option("--latency-seconds", options->latency_seconds,
                     "Real-time seconds of each latency run")
        ->capture_default_str();
    command
        ->add_option("--only", options->only,
                     "Run only these parts (link, bandwidth, capacity, latency, datagram)")
        ->check(CLI::IsMember({"link", "bandwidth", "capacity", "latency", "datagram"}));
    command->add_option("--link-seconds", options->link_seconds, "Seconds of play a link run")
        ->capture_default_str();
    command->add_option("--seeds", options->seeds, "Seeds of the link runs (ranges over them)")
        ->capture_default_str();
    command->add_option("--rtt", options->rtts_ms, "Round trips of the link runs, ms")
        ->capture_default_str();
    command->add_option("--loss", options->losses_percent, "Loss of the link runs, % each way")
        ->capture_default_str();
    command
        ->add_option("--maps", options->link_maps,
                     "Maps of the per-map link runs (\"\": skip them)")
        ->capture_default_str()
        ->expected(0, -1);
    command->add_flag("--json", options->json, "One JSON object per line instead of a table");
    command->callback([options] {
        const int status = run_server_bench(*options);
        if (status != EXIT_SUCCESS) throw CLI::RuntimeError(status);
    });
}

}  // namespace carom::bench
