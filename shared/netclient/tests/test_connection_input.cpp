// Inputs: sequence numbers, what is sent again and until when, the
// acknowledgement, and the round trip it measures.
#include <doctest/doctest.h>

#include "carom/client/testing/fake_server.hpp"

namespace carom::client {
namespace {

using test::Harness;

TEST_CASE("client_update_carries_the_unapplied_inputs_up_to_k_oldest_first") {
    Harness h;
    test::AcceptedFields f;
    f.input_redundancy = 3;
    h.connect(f);
    CHECK(h.connection.next_sequence() == 1);

    h.connection.send_input(game::Input::move(4), 100);
    {
        const protocol::ClientReport r = h.last_report();
        CHECK(r.sequence == 1);
        REQUIRE(r.inputs.size() == 1);
        CHECK(r.inputs[0] == game::Input::move(4));
        CHECK_FALSE(r.ack.has_value());  // it holds no state yet
    }
    for (std::uint8_t d = 5; d < 10; ++d)
        h.connection.send_input(game::Input::move(d, true), 100 + d);
    const protocol::ClientReport r = h.last_report();
    // Sequences 4, 5, 6: the inputs move(7..9, kick).
    CHECK(r.sequence == 6);
    REQUIRE(r.inputs.size() == 3);
    for (std::uint32_t i = 0; i < 3; ++i)
        CHECK(r.inputs[i] == game::Input::move(static_cast<std::uint8_t>(7 + i), true));
    CHECK(h.connection.next_sequence() == 7);
}

TEST_CASE("redundancy_defaults_to_8_when_accepted_says_0") {
    Harness h;
    test::AcceptedFields f;
    f.input_redundancy = 0;
    h.connect(f);
    for (int i = 0; i < 20; ++i)  // a change every tick: every tick sent
        h.connection.send_input(game::Input::move(static_cast<std::uint8_t>(i)), 0);
    const protocol::ClientReport r = h.last_report();
    CHECK(r.inputs.size() == 8);
    CHECK(r.sequence == 20);
}

TEST_CASE("inputs_the_server_shows_applied_are_not_sent_again") {
    test::FakeRoom room("rink");
    Harness h;
    h.join(room);
    for (int i = 0; i < 6; ++i)
        h.connection.send_input(game::Input::move(static_cast<std::uint8_t>(i)),
                                static_cast<std::uint64_t>(16 * i));
    CHECK(h.last_report().inputs.size() == 6);
    // The server applied 1 to 4 by the state it sends.
    const std::vector<game::Input> inputs(room.match().slot_count(), game::Input::move(2));
    room.step(inputs, 4);
    h.receive(room.full_state(), 100);
    h.connection.send_input(game::Input::move(3), 116);
    const protocol::ClientReport r = h.last_report(room.tick(), 4);
    CHECK(r.sequence == 7);
    REQUIRE(r.inputs.size() == 3);  // 5, 6 and the new 7
    CHECK(r.inputs[2] == game::Input::move(3));
    CHECK(r.ack == room.tick());
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

TEST_CASE("client_update_acknowledges_the_tick_whose_state_it_holds") {
    test::FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.connection.send_input(game::Input::idle(), 0);
    CHECK_FALSE(h.last_report().ack.has_value());
    h.receive(room.full_state(), 10);
    h.connection.send_input(game::Input::idle(), 16);
    protocol::ClientReport r = h.last_report(room.tick());
    CHECK(r.ack == room.tick());
    const std::uint64_t first = room.tick();
    room.step_idle(3);
    h.receive(room.update(first), 40);
    h.connection.send_input(game::Input::move(1), 48);  // a change: sent at once, with the ack
    CHECK(h.last_report(room.tick()).ack == room.tick());
}

TEST_CASE("round_trip_time_is_from_an_ack_to_the_first_update_built_on_it") {
    test::FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 900);
    const std::uint64_t held = room.tick();
    h.connection.send_input(game::Input::idle(), 1000);  // acks `held` at 1000 ms
    h.connection.send_input(game::Input::idle(), 1016);  // again: the first sending counts
    room.step_idle();
    h.receive(room.update(held), 1037);
    REQUIRE(h.connection.stats().rtt_ms.size() == 1);
    CHECK(h.connection.stats().rtt_ms[0] == doctest::Approx(37.0));
    // Another update on the same baseline: not a second sample.
    const std::uint64_t second = room.tick();
    room.step_idle();
    h.receive(room.update(held), 1050);
    CHECK(h.connection.stats().rtt_ms.size() == 1);
    // An update on a tick never acknowledged gives none either.
    (void)second;
    room.step_idle();
    h.receive(room.update(room.tick() - 1), 1060);
    CHECK(h.connection.stats().rtt_ms.size() == 1);
}

TEST_CASE("a_spectator_sends_acks_without_inputs") {
    Harness h;
    test::AcceptedFields f;
    f.slot = -1;
    h.connect(f);
    h.connection.send_input(game::Input::move(1), 0);
    const protocol::ClientReport r = h.last_report();
    CHECK(r.inputs.empty());
    CHECK(r.sequence == 0);
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
    // The Challenge with its nonce and key; Accepted sealed.
    CHECK(h.connection.stats().bytes_in ==
          test::challenge(7, 1, protocol::make_key_pair().public_key).size() +
              test::accepted({}).size() + protocol::kSealOverheadBytes);
}

}  // namespace
}  // namespace carom::client
