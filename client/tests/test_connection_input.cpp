// Inputs: sequence numbers, redundancy, the snapshot ack and ping ids.
#include <doctest/doctest.h>

#include "fake_server.hpp"

namespace carom::client {
namespace {

using test::Harness;

const net::ClientInput& last_input(const Harness& h) {
    const net::ClientInput* input = h.last_sent().body_as_ClientInput();
    REQUIRE(input != nullptr);
    return *input;
}

TEST_CASE("client_input_carries_the_last_k_inputs_oldest_first") {
    Harness h;
    test::AcceptedFields f;
    f.input_redundancy = 3;
    h.connect(f);
    CHECK(h.connection.next_sequence() == 1);

    h.connection.send_input(game::Input::move(4), 100);
    {
        const net::ClientInput& in = last_input(h);
        REQUIRE(in.inputs() != nullptr);
        REQUIRE(in.inputs()->size() == 1);
        CHECK(in.inputs()->Get(0)->sequence() == 1);
        CHECK(in.inputs()->Get(0)->bits() == game::Input::move(4).bits());
    }
    for (std::uint8_t d = 5; d < 10; ++d)
        h.connection.send_input(game::Input::move(d, true), 100 + d);
    const net::ClientInput& in = last_input(h);
    REQUIRE(in.inputs()->size() == 3);
    for (std::uint32_t i = 0; i < 3; ++i) {
        // Sequences 4, 5, 6: the inputs move(7..9, kick).
        CHECK(in.inputs()->Get(i)->sequence() == 4 + i);
        const auto direction = static_cast<std::uint8_t>(7 + i);
        CHECK(in.inputs()->Get(i)->bits() == game::Input::move(direction, true).bits());
    }
    CHECK(h.last_sent().client_id() == 42);
    CHECK(h.connection.next_sequence() == 7);
}

TEST_CASE("redundancy_defaults_to_8_when_accepted_says_0") {
    Harness h;
    test::AcceptedFields f;
    f.input_redundancy = 0;
    h.connect(f);
    for (int i = 0; i < 20; ++i)
        h.connection.send_input(game::Input::idle(), 0);
    const net::ClientInput& in = last_input(h);
    REQUIRE(in.inputs()->size() == 8);
    CHECK(in.inputs()->Get(0)->sequence() == 13);
    CHECK(in.inputs()->Get(7)->sequence() == 20);
}

TEST_CASE("no_input_is_sent_before_accepted") {
    Harness h;
    h.connection.send_input(game::Input::idle(), 0);
    CHECK(h.sent.empty());
    h.connection.connect(0);
    h.connection.send_input(game::Input::idle(), 0);
    CHECK(h.sent.size() == 1);
    CHECK(h.connection.next_sequence() == 1);
}

TEST_CASE("client_input_acks_the_newest_snapshot_and_counts_ping_ids") {
    Harness h;
    h.connect();
    h.connection.send_input(game::Input::idle(), 0);
    CHECK(last_input(h).ack_snapshot() == 0);
    const std::uint32_t first_ping = last_input(h).ping_id();
    CHECK(first_ping != 0);

    h.receive(test::snapshot(test::frame(30, 3), nullptr), 10);
    h.connection.send_input(game::Input::idle(), 16);
    CHECK(last_input(h).ack_snapshot() == 30);
    CHECK(last_input(h).ping_id() == first_ping + 1);
}

TEST_CASE("round_trip_time_comes_from_the_snapshot_pong_id") {
    Harness h;
    h.connect();
    h.connection.send_input(game::Input::idle(), 1000);
    const std::uint32_t ping = last_input(h).ping_id();
    protocol::SnapshotExtras extras;
    extras.pong_id = ping;
    h.receive(test::snapshot(test::frame(3, 3), nullptr, extras), 1037);
    REQUIRE(h.connection.stats().rtt_ms.size() == 1);
    CHECK(h.connection.stats().rtt_ms[0] == doctest::Approx(37.0));
    // The next snapshot echoes the same ping: not a second sample.
    const protocol::Frame base = test::frame(3, 3);
    h.receive(test::snapshot(test::frame(6, 3), &base, extras), 1050);
    CHECK(h.connection.stats().rtt_ms.size() == 1);
    // A pong for a ping never sent is ignored.
    extras.pong_id = ping + 100;
    h.receive(test::snapshot(test::frame(9, 3), nullptr, extras), 1060);
    CHECK(h.connection.stats().rtt_ms.size() == 1);
}

TEST_CASE("a_spectator_sends_acks_without_inputs") {
    Harness h;
    test::AcceptedFields f;
    f.slot = -1;
    h.connect(f);
    h.connection.send_input(game::Input::move(1), 0);
    const net::ClientInput& in = last_input(h);
    CHECK((in.inputs() == nullptr || in.inputs()->size() == 0));
    CHECK(h.connection.next_sequence() == 1);
}

TEST_CASE("traffic_is_counted_both_ways") {
    Harness h;
    h.connect();
    std::uint64_t out_bytes = 0;
    for (const test::Bytes& b : h.sent)
        out_bytes += b.size();
    CHECK(h.connection.stats().packets_out == h.sent.size());
    CHECK(h.connection.stats().bytes_out == out_bytes);
    CHECK(h.connection.stats().packets_in == 2);
    CHECK(h.connection.stats().bytes_in == test::challenge(7).size() + test::accepted({}).size());
}

}  // namespace
}  // namespace carom::client
