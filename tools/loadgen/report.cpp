#include "report.hpp"

#include <algorithm>
#include <cmath>

#include <spdlog/fmt/fmt.h>

namespace carom::loadgen {
namespace {

double mean(const std::vector<double>& v) {
    if (v.empty()) return 0.0;
    double sum = 0.0;
    for (double x : v)
        sum += x;
    return sum / static_cast<double>(v.size());
}

std::string counts(const std::map<std::string, std::uint64_t>& m) {
    std::string out;
    for (const auto& [what, n] : m)
        out += fmt::format("{}{} × {}", out.empty() ? "" : ", ", n, what);
    return out.empty() ? "none" : out;
}

}  // namespace

double percentile(std::vector<double> samples, double p) {
    if (samples.empty()) return 0.0;
    const double rank = std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(samples.size()));
    const std::size_t index = rank < 1.0 ? 0 : static_cast<std::size_t>(rank) - 1;
    std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(index),
                     samples.end());
    return samples[index];
}

Report summarise(const std::vector<ClientResult>& clients, double seconds,
                 std::uint64_t garbage_sent, std::uint64_t max_gap_bound_ms) {
    Report r;
    r.max_gap_bound_ms = max_gap_bound_ms;
    bool first_share = true;
    r.seconds = seconds;
    r.garbage_sent = garbage_sent;
    std::vector<double> input_waits, all_rtt, client_p50, client_p99, update_rates, in_rates,
        out_rates;
    std::uint64_t missed = 0, expected = 0, taken_bytes = 0;
    for (const ClientResult& c : clients) {
        ++r.clients;
        r.spectators += c.spectator ? 1 : 0;
        r.socket_errors += c.socket_errors;
        if (!c.map_problem.empty()) ++r.map_problems[c.map_problem];
        if (!c.deny_reason.empty()) ++r.denied[c.deny_reason];
        if (!c.accepted) {
            if (c.deny_reason.empty()) ++r.other_outcomes[c.outcome];
            continue;
        }
        ++r.accepted;
        if (c.outcome != "connected") {
            ++r.other_outcomes[c.outcome];
            ++r.lost_clients;
        }
        const client::ConnectionStats& s = c.stats;
        {
            Report::PerClient pc;
            pc.client_id = c.client_id;
            pc.max_gap_ms = c.max_gap_ms;
            pc.max_input_stall_ms = c.max_input_stall_ms;
            pc.outcome = c.outcome;
            pc.hash_mismatches = s.hash_mismatches;
            pc.holds_state = c.holds_state;
            const double due = c.connected_s * static_cast<double>(c.update_rate_hz);
            pc.update_share =
                due <= 0.0 ? 0.0 : std::min(1.0, static_cast<double>(s.states_taken) / due);
            r.max_gap_ms = std::max(r.max_gap_ms, pc.max_gap_ms);
            r.max_input_stall_ms = std::max(r.max_input_stall_ms, pc.max_input_stall_ms);
            r.update_share_min =
                first_share ? pc.update_share : std::min(r.update_share_min, pc.update_share);
            first_share = false;
            r.per_client.push_back(std::move(pc));
        }
        r.with_updates += s.states_taken > 0 ? 1 : 0;
        all_rtt.insert(all_rtt.end(), s.rtt_ms.begin(), s.rtt_ms.end());
        input_waits.insert(input_waits.end(), c.input_waits_ms.begin(), c.input_waits_ms.end());
        if (!s.rtt_ms.empty()) {
            client_p50.push_back(percentile(s.rtt_ms, 0.50));
            client_p99.push_back(percentile(s.rtt_ms, 0.99));
        }
        const double t = std::max(c.connected_s, 1e-3);
        update_rates.push_back(static_cast<double>(s.states_taken) / t);
        in_rates.push_back(static_cast<double>(s.bytes_in) / t);
        out_rates.push_back(static_cast<double>(s.bytes_out) / t);
        missed += s.updates_missed;
        expected += s.updates_missed + s.states_taken;
        r.client_loss_pct_max = std::max(r.client_loss_pct_max, 100.0 * s.loss_estimate());
        r.full_states += s.full_states;
        r.updates += s.updates;
        taken_bytes += s.taken_bytes;
        r.out_of_order += s.out_of_order;
        r.undecodable += s.undecodable;
        r.hash_mismatches += s.hash_mismatches;
        r.resyncs += s.resyncs;
        r.without_state += c.holds_state ? 0 : 1;
        r.forged += s.forged_total();
        r.far_ahead += s.far_ahead;
        r.steps_discarded += s.steps_discarded;
        r.invalid_from_server += s.invalid_total() + s.wrong_protocol + s.unexpected;
    }
    r.rtt_p50_ms = percentile(all_rtt, 0.50);
    r.rtt_p99_ms = percentile(all_rtt, 0.99);
    r.client_rtt_p50_ms = mean(client_p50);
    r.client_rtt_p99_ms = mean(client_p99);
    r.input_wait_p50_ms = percentile(input_waits, 0.50);
    r.input_wait_p99_ms = percentile(input_waits, 0.99);
    r.updates_per_s = mean(update_rates);
    r.updates_per_s_min =
        update_rates.empty() ? 0.0 : *std::min_element(update_rates.begin(), update_rates.end());
    r.loss_pct =
        expected == 0 ? 0.0 : 100.0 * static_cast<double>(missed) / static_cast<double>(expected);
    r.bytes_in_per_s = mean(in_rates);
    r.bytes_out_per_s = mean(out_rates);
    const std::uint64_t taken = r.full_states + r.updates;
    r.taken_bytes_mean =
        taken == 0 ? 0.0 : static_cast<double>(taken_bytes) / static_cast<double>(taken);
    return r;
}

std::string to_text(const Report& r) {
    std::string out;
    out += fmt::format("carom-loadgen: {} clients ({} spectators) for {:.1f} s\n", r.clients,
                       r.spectators, r.seconds);
    out += fmt::format("  accepted         {} / {}, {} received updates\n", r.accepted, r.clients,
                       r.with_updates);
    out += fmt::format("  denied           {}\n", counts(r.denied));
    out += fmt::format("  other outcomes   {}\n", counts(r.other_outcomes));
    out += fmt::format(
        "  rtt ms           p50 {:.1f}  p99 {:.1f}  (per-client mean p50 {:.1f}, p99 {:.1f})\n",
        r.rtt_p50_ms, r.rtt_p99_ms, r.client_rtt_p50_ms, r.client_rtt_p99_ms);
    out +=
        fmt::format("  input → update   p50 {:.1f}  p99 {:.1f} ms (an input sent, shown applied)\n",
                    r.input_wait_p50_ms, r.input_wait_p99_ms);
    out += fmt::format("  updates/s      {:.1f} per client (min {:.1f})\n", r.updates_per_s,
                       r.updates_per_s_min);
    out += fmt::format("  loss             {:.2f} % overall, worst client {:.2f} %\n", r.loss_pct,
                       r.client_loss_pct_max);
    out += fmt::format(
        "  update gaps    longest {} ms (bound {} ms); lowest share of those due {:.1f} %; "
        "{} clients lost\n",
        r.max_gap_ms, r.max_gap_bound_ms, 100.0 * r.update_share_min, r.lost_clients);
    out += fmt::format("  inputs applied   longest stall {} ms (bound {} ms)\n",
                       r.max_input_stall_ms, r.max_gap_bound_ms);
    if (r.own_stalls_ms > 0)
        out += fmt::format(
            "                   (the load generator itself stood still {} ms: not counted)\n",
            r.own_stalls_ms);
    for (const Report::PerClient& c : r.per_client)
        if (c.max_gap_ms > r.max_gap_bound_ms || c.max_input_stall_ms > r.max_gap_bound_ms ||
            c.outcome != "connected")
            out += fmt::format(
                "    client {:08x}: longest gap {} ms, inputs stalled {} ms, {:.1f} % of "
                "updates, {}\n",
                c.client_id, c.max_gap_ms, c.max_input_stall_ms, 100.0 * c.update_share, c.outcome);
    out += fmt::format("  bytes/s          in {:.0f}  out {:.0f}  per client\n", r.bytes_in_per_s,
                       r.bytes_out_per_s);
    out += fmt::format(
        "  updates        {} full, {} delta, {:.0f} B mean; {} out of order, {} undecodable\n",
        r.full_states, r.updates, r.taken_bytes_mean, r.out_of_order, r.undecodable);
    out += fmt::format(
        "  state checks     {} failed, {} copies dropped for a full state, {} without a "
        "state at the end\n",
        r.hash_mismatches, r.resyncs, r.without_state);
    out += fmt::format(
        "  dropped          {} forged, {} far ahead, {} other refused from the server's "
        "address; {} ticks stepped in vain\n",
        r.forged, r.far_ahead, r.invalid_from_server, r.steps_discarded);
    out += fmt::format("  socket errors    {}  garbage sent {}\n", r.socket_errors, r.garbage_sent);
    if (!r.map_problems.empty())
        out += fmt::format("  map problems     {}\n", counts(r.map_problems));
    out += fmt::format("  result           {}\n", r.ok() ? "ok" : "FAILED");
    return out;
}

nlohmann::json to_json(const Report& r) {
    nlohmann::json per_client = nlohmann::json::array();
    for (const Report::PerClient& c : r.per_client)
        per_client.push_back({{"client_id", c.client_id},
                              {"max_gap_ms", c.max_gap_ms},
                              {"max_input_stall_ms", c.max_input_stall_ms},
                              {"update_share", c.update_share},
                              {"outcome", c.outcome},
                              {"hash_mismatches", c.hash_mismatches},
                              {"holds_state", c.holds_state}});
    return {
        {"clients", r.clients},
        {"spectators", r.spectators},
        {"seconds", r.seconds},
        {"accepted", r.accepted},
        {"with_updates", r.with_updates},
        {"denied", r.denied},
        {"other_outcomes", r.other_outcomes},
        {"map_problems", r.map_problems},
        {"rtt_ms",
         {{"p50", r.rtt_p50_ms},
          {"p99", r.rtt_p99_ms},
          {"client_mean_p50", r.client_rtt_p50_ms},
          {"client_mean_p99", r.client_rtt_p99_ms}}},
        {"input_to_update_ms", {{"p50", r.input_wait_p50_ms}, {"p99", r.input_wait_p99_ms}}},
        {"updates_per_s", {{"client_mean", r.updates_per_s}, {"client_min", r.updates_per_s_min}}},
        {"loss_pct", {{"overall", r.loss_pct}, {"client_max", r.client_loss_pct_max}}},
        {"bytes_per_s",
         {{"in_client_mean", r.bytes_in_per_s}, {"out_client_mean", r.bytes_out_per_s}}},
        {"updates",
         {{"full", r.full_states},
          {"delta", r.updates},
          {"bytes_mean", r.taken_bytes_mean},
          {"out_of_order", r.out_of_order},
          {"undecodable", r.undecodable},
          {"hash_mismatches", r.hash_mismatches},
          {"resyncs", r.resyncs},
          {"without_state", r.without_state}}},
        {"dropped",
         {{"forged", r.forged},
          {"far_ahead", r.far_ahead},
          {"steps_discarded", r.steps_discarded}}},
        {"refused_from_server", r.invalid_from_server},
        {"socket_errors", r.socket_errors},
        {"garbage_sent", r.garbage_sent},
        {"update_gap_ms", {{"max", r.max_gap_ms}, {"bound", r.max_gap_bound_ms}}},
        {"input_stall_ms", {{"max", r.max_input_stall_ms}, {"bound", r.max_gap_bound_ms}}},
        {"own_stalls_ms", r.own_stalls_ms},
        {"update_share_min", r.update_share_min},
        {"lost_clients", r.lost_clients},
        {"per_client", per_client},
        {"ok", r.ok()},
    };
}

}  // namespace carom::loadgen
