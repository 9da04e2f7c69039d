// carom-loadgen's report: percentiles, per-client rates and the verdict.
#include <doctest/doctest.h>

#include "report.hpp"

namespace carom::loadgen {
namespace {

ClientResult connected_client(std::uint64_t updates, std::uint64_t missed, double seconds) {
    ClientResult c;
    c.accepted = true;
    c.outcome = "connected";
    c.connected_s = seconds;
    c.stats.states_taken = updates;
    c.stats.full_states = 1;
    c.stats.updates = updates - 1;
    c.stats.updates_missed = missed;
    c.stats.bytes_in = 1000 * updates;
    c.stats.rtt_ms = {10, 20, 30, 40};
    return c;
}

TEST_CASE("percentile_is_nearest_rank") {
    CHECK(percentile({}, 0.5) == 0.0);
    CHECK(percentile({5}, 0.99) == 5.0);
    CHECK(percentile({4, 1, 3, 2}, 0.5) == 2.0);
    CHECK(percentile({4, 1, 3, 2}, 0.99) == 4.0);
    CHECK(percentile({4, 1, 3, 2}, 0.0) == 1.0);
}

TEST_CASE("report_averages_per_client_and_pools_overall") {
    const std::vector<ClientResult> clients = {connected_client(60, 0, 2.0),
                                               connected_client(30, 30, 2.0)};
    const Report r = summarise(clients, 2.0, 7);
    CHECK(r.ok());
    CHECK(r.accepted == 2);
    CHECK(r.updates_per_s == doctest::Approx((30.0 + 15.0) / 2));
    CHECK(r.updates_per_s_min == doctest::Approx(15.0));
    CHECK(r.loss_pct == doctest::Approx(100.0 * 30 / 120));
    CHECK(r.client_loss_pct_max == doctest::Approx(50.0));
    CHECK(r.bytes_in_per_s == doctest::Approx((30000.0 + 15000.0) / 2));
    CHECK(r.full_states == 2);
    CHECK(r.updates == 88);
    CHECK(r.rtt_p50_ms == 20.0);
    CHECK(r.rtt_p99_ms == 40.0);
    CHECK(r.garbage_sent == 7);
    CHECK(to_json(r)["ok"] == true);
}

TEST_CASE("report_fails_when_a_client_was_denied_or_got_no_update") {
    ClientResult denied;
    denied.outcome = "denied: room_full";
    denied.deny_reason = "room_full";
    ClientResult silent = connected_client(1, 0, 1.0);
    silent.stats.states_taken = 0;
    const Report r = summarise({connected_client(60, 0, 2.0), denied, silent}, 2.0, 0);
    CHECK_FALSE(r.ok());
    CHECK(r.denied.at("room_full") == 1);
    CHECK(r.with_updates == 1);
    CHECK(to_text(r).find("FAILED") != std::string::npos);
}

TEST_CASE("report_fails_when_a_client_timed_out_or_was_disconnected_after_acceptance") {
    // Accepted, updates received, then lost: the old verdict passed this.
    for (const char* outcome : {"timeout", "server disconnect: kicked"}) {
        CAPTURE(outcome);
        ClientResult lost = connected_client(60, 0, 2.0);
        lost.outcome = outcome;
        const Report r = summarise({connected_client(60, 0, 2.0), lost}, 2.0, 0);
        CHECK(r.lost_clients == 1);
        CHECK_FALSE(r.ok());
        CHECK(to_json(r)["ok"] == false);
        CHECK(to_text(r).find(outcome) != std::string::npos);
    }
}

TEST_CASE("report_gives_the_longest_update_gap_and_fails_over_the_bound") {
    ClientResult a = connected_client(60, 0, 2.0);
    a.client_id = 0xA;
    a.max_gap_ms = 40;
    a.update_rate_hz = 30;
    ClientResult b = connected_client(30, 30, 2.0);
    b.client_id = 0xB;
    b.max_gap_ms = 251;  // a stall just over the default bound
    b.update_rate_hz = 30;
    const Report r = summarise({a, b}, 2.0, 0);
    CHECK(r.max_gap_ms == 251);
    CHECK_FALSE(r.ok());
    REQUIRE(r.per_client.size() == 2);
    CHECK(r.per_client[0].update_share == doctest::Approx(1.0));
    CHECK(r.per_client[1].update_share == doctest::Approx(0.5));  // 30 of 60 due
    CHECK(r.update_share_min == doctest::Approx(0.5));
    CHECK(to_json(r)["update_gap_ms"]["max"] == 251);
    CHECK(to_json(r)["per_client"][1]["max_gap_ms"] == 251);
    CHECK(to_text(r).find("longest gap 251 ms") != std::string::npos);
    // A looser bound (--max-gap-ms 300) passes the same run.
    CHECK(summarise({a, b}, 2.0, 0, 300).ok());
}

TEST_CASE("report_fails_a_player_whose_inputs_the_server_stopped_applying") {
    // Updates keep coming, but the server applied none of this player's
    // inputs for 2 s: a frozen session, not a slow link.
    ClientResult frozen = connected_client(60, 0, 2.0);
    frozen.client_id = 0xF;
    frozen.max_gap_ms = 20;
    frozen.max_input_stall_ms = 2000;
    frozen.update_rate_hz = 30;
    const Report r = summarise({connected_client(60, 0, 2.0), frozen}, 2.0, 0);
    CHECK(r.max_gap_ms == 20);
    CHECK(r.max_input_stall_ms == 2000);
    CHECK_FALSE(r.ok());
    CHECK(to_json(r)["input_stall_ms"]["max"] == 2000);
    CHECK(to_json(r)["per_client"][1]["max_input_stall_ms"] == 2000);
    CHECK(to_text(r).find("inputs stalled 2000 ms") != std::string::npos);
    frozen.max_input_stall_ms = 40;  // an input applied every few ticks is fine
    CHECK(summarise({connected_client(60, 0, 2.0), frozen}, 2.0, 0).ok());
}

TEST_CASE("report_counts_forged_datagrams_and_fails_a_run_with_a_resync") {
    ClientResult attacked = connected_client(60, 0, 2.0);
    attacked.stats.refused_sealed[static_cast<std::size_t>(protocol::SealRefusal::bad_tag)] = 300;
    attacked.stats.unsealed = 20;
    attacked.stats.far_ahead = 2;
    Report r = summarise({connected_client(60, 0, 2.0), attacked}, 2.0, 0);
    CHECK(r.forged == 320);
    CHECK(r.far_ahead == 2);
    CHECK(r.ok());  // dropped, counted, and nothing lost
    CHECK(to_json(r)["dropped"]["forged"] == 320);
    CHECK(to_text(r).find("320 forged, 2 far ahead") != std::string::npos);
    attacked.stats.resyncs = 1;
    r = summarise({connected_client(60, 0, 2.0), attacked}, 2.0, 0);
    CHECK(r.resyncs == 1);
    CHECK_FALSE(r.ok());
}

}  // namespace
}  // namespace carom::loadgen
