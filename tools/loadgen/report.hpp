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
    std::uint32_t client_id = 0;
    // The longest time without an update, from acceptance to the end of the
    // run. Both durations leave out the load generator's own stalls.
    std::uint64_t max_gap_ms = 0;
    // A player's longest time without the server applying a new input of
    // its own (as its updates report), the end of the run included.
    std::uint64_t max_input_stall_ms = 0;
    // Each input sent: how long until the first update that shows it applied.
    std::vector<double> input_waits_ms;
    std::uint32_t update_rate_hz = 0;  // from Accepted: what was due
    // Its copy of the match held a state at the end (after any failed proof, it got one again).
    bool holds_state = false;
};

// p in [0, 1], nearest rank; 0 when empty.
double percentile(std::vector<double> samples, double p);

struct Report {
    std::uint64_t clients = 0;
    std::uint64_t spectators = 0;
    std::uint64_t accepted = 0;
    std::uint64_t with_updates = 0;
    std::map<std::string, std::uint64_t> denied;  // by reason
    std::map<std::string, std::uint64_t>
        other_outcomes;  // never accepted (not denied), or dropped before the end
    std::map<std::string, std::uint64_t> map_problems;
    std::uint64_t socket_errors = 0;

    double rtt_p50_ms = 0.0;  // over every sample of every client
    double rtt_p99_ms = 0.0;
    double client_rtt_p50_ms = 0.0;  // mean of each client's own percentile
    double client_rtt_p99_ms = 0.0;
    double input_wait_p50_ms = 0.0;  // input sent → update showing it applied, every player's
    double input_wait_p99_ms = 0.0;
    double updates_per_s = 0.0;  // per accepted client, mean
    double updates_per_s_min = 0.0;
    double loss_pct = 0.0;  // all clients' missed / expected updates
    double client_loss_pct_max = 0.0;
    double bytes_in_per_s = 0.0;  // per accepted client, mean
    double bytes_out_per_s = 0.0;
    std::uint64_t full_states = 0;
    std::uint64_t updates = 0;
    double taken_bytes_mean = 0.0;
    std::uint64_t out_of_order = 0;
    std::uint64_t undecodable = 0;
    // Failed state checks (a copy of the match other than the server's), and
    // the times a copy was dropped for a FullState; clients whose copy held
    // no state at the end (a failure they did not recover from, or a
    // FullState still on its way).
    std::uint64_t hash_mismatches = 0;
    std::uint64_t resyncs = 0;
    std::uint64_t without_state = 0;
    // Datagrams from the server's address the clients dropped: forged (a
    // reply not asked for, a session datagram in the clear or not sealed
    // with the session's keys, a replayed sequence), a
    // sealed update further ahead than the clock allowed, and the rest
    // (malformed, another version, unexpected).
    std::uint64_t forged = 0;
    std::uint64_t far_ahead = 0;
    std::uint64_t steps_discarded = 0;  // ticks stepped for updates then thrown away
    std::uint64_t invalid_from_server = 0;
    std::uint64_t garbage_sent = 0;
    double seconds = 0.0;

    // Per accepted client, in order: its longest update gap and the share of
    // the updates due (connected time × the update rate) it received.
    struct PerClient {
        std::uint32_t client_id = 0;
        std::uint64_t max_gap_ms = 0;
        std::uint64_t max_input_stall_ms = 0;
        double update_share = 0.0;
        std::string outcome;
        std::uint64_t hash_mismatches = 0;
        bool holds_state = false;
    };
    std::vector<PerClient> per_client;
    std::uint64_t max_gap_ms = 0;          // the longest of any client
    std::uint64_t max_input_stall_ms = 0;  // the longest of any player
    double update_share_min = 0.0;         // the lowest share of any client
    std::uint64_t lost_clients = 0;        // accepted, then timed out or disconnected
    std::uint64_t max_gap_bound_ms = 250;  // --max-gap-ms
    // Time the load generator's own loop stood still beyond two ticks (the
    // machine busy): left out of the gaps and stalls above, which judge the server.
    std::uint64_t own_stalls_ms = 0;

    // Every client was accepted, received updates, stayed connected to the
    // end, never waited longer than the bound for an update, nor (a player)
    // for the server to apply one of its inputs, and no client's copy of the
    // match had to be dropped for a FullState (carom's steps are exact: a
    // resync is a fault, or an attack that got through).
    bool ok() const {
        return accepted == clients && with_updates == clients && lost_clients == 0 &&
               max_gap_ms <= max_gap_bound_ms && max_input_stall_ms <= max_gap_bound_ms &&
               resyncs == 0;
    }
};

Report summarise(const std::vector<ClientResult>& clients, double seconds,
                 std::uint64_t garbage_sent, std::uint64_t max_gap_bound_ms = 250);
std::string to_text(const Report& report);
nlohmann::json to_json(const Report& report);

}  // namespace carom::loadgen
