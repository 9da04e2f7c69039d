#pragma once
// What a load run measured: each simulated client's outcome and counters,
// summed up into per-client averages and overall figures.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "carom/client/connection_stats.hpp"

namespace carom::loadgen {

struct ClientResult {
    bool spectator = false;
    bool accepted = false;
    // "connected", "denied: room_full (detail)", "connect timeout", "timeout"...
    std::string outcome;
    std::string deny_reason;   // set when denied
    double connected_s = 0.0;  // from Accepted to the end of the run
    client::ConnectionStats stats;
    std::string map_problem;  // why the client played idle inputs, if it did
    std::uint64_t socket_errors = 0;
};

// p in [0, 1], nearest rank; 0 when empty.
double percentile(std::vector<double> samples, double p);

struct Report {
    std::uint64_t clients = 0;
    std::uint64_t spectators = 0;
    std::uint64_t accepted = 0;
    std::uint64_t with_snapshots = 0;
    std::map<std::string, std::uint64_t> denied;  // by reason
    std::map<std::string, std::uint64_t>
        other_outcomes;  // never accepted (not denied), or dropped before the end
    std::map<std::string, std::uint64_t> map_problems;
    std::uint64_t socket_errors = 0;

    double rtt_p50_ms = 0.0;  // over every sample of every client
    double rtt_p99_ms = 0.0;
    double client_rtt_p50_ms = 0.0;  // mean of each client's own percentile
    double client_rtt_p99_ms = 0.0;
    double snapshots_per_s = 0.0;  // per accepted client, mean
    double snapshots_per_s_min = 0.0;
    double loss_pct = 0.0;  // all clients' missed / expected snapshots
    double client_loss_pct_max = 0.0;
    double bytes_in_per_s = 0.0;  // per accepted client, mean
    double bytes_out_per_s = 0.0;
    std::uint64_t snapshots_full = 0;
    std::uint64_t snapshots_delta = 0;
    double snapshot_bytes_mean = 0.0;
    std::uint64_t snapshots_out_of_order = 0;
    std::uint64_t snapshots_undecodable = 0;
    std::uint64_t invalid_from_server = 0;
    std::uint64_t garbage_sent = 0;
    double seconds = 0.0;

    // Every client was accepted and received snapshots.
    bool ok() const { return accepted == clients && with_snapshots == clients; }
};

Report summarise(const std::vector<ClientResult>& clients, double seconds,
                 std::uint64_t garbage_sent);
std::string to_text(const Report& report);
nlohmann::json to_json(const Report& report);

}  // namespace carom::loadgen
