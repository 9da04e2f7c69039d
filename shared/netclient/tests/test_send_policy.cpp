// When a client speaks: an input change at once and on the next ticks, then
// nothing but acknowledgements at a lower rate; a spectator less still.
#include <doctest/doctest.h>

#include "carom/client/send_policy.hpp"
#include "carom/client/testing/fake_server.hpp"

namespace carom::client {
namespace {

using Send = SendPolicy::Send;
using test::Harness;

TEST_CASE("send_policy_sends_a_change_at_once_and_again_then_only_acknowledges") {
    SendPolicy p(SendPolicyConfig{2, 4, 24});
    const game::Input a = game::Input::move(3), b = game::Input::move(4);
    CHECK(p.tick(a, std::nullopt) == Send::input);  // the first input is a change
    CHECK(p.tick(a, std::nullopt) == Send::ack);    // again, for loss
    CHECK(p.tick(a, std::nullopt) == Send::nothing);
    // A state: acknowledged once 4 ticks passed since the last datagram, not before.
    for (std::uint64_t t = 10; t < 12; ++t)
        CHECK(p.tick(a, t) == Send::nothing);
    CHECK(p.tick(a, 12) == Send::ack);
    for (std::uint64_t t = 13; t < 16; ++t)
        CHECK(p.tick(a, t) == Send::nothing);
    CHECK(p.tick(a, 16) == Send::ack);
    // Nothing newer held: nothing to acknowledge.
    for (int i = 0; i < 10; ++i)
        CHECK(p.tick(a, 16) == Send::nothing);
    // The first change after a quiet spell waits for no timer.
    CHECK(p.tick(b, 16) == Send::input);
    CHECK(p.tick(b, 17) == Send::ack);
    CHECK(p.tick(b, 18) == Send::nothing);
}

TEST_CASE("send_policy_acknowledges_a_full_state_and_a_lost_copy_at_once") {
    SendPolicy p(SendPolicyConfig{2, 4, 24});
    CHECK(p.tick(std::nullopt, std::nullopt) == Send::ack);  // the first tick says it holds nothing
    CHECK(p.tick(std::nullopt, std::nullopt) == Send::nothing);
    p.ack_soon();
    // On the next tick, and again on the one after (its copy).
    CHECK(p.tick(std::nullopt, 100) == Send::ack);
    CHECK(p.tick(std::nullopt, 100) == Send::ack);
    CHECK(p.tick(std::nullopt, 101) == Send::nothing);
    // The copy dropped: said on the next tick.
    CHECK(p.tick(std::nullopt, std::nullopt) == Send::ack);
    CHECK(p.tick(std::nullopt, std::nullopt) == Send::nothing);
}

TEST_CASE("send_policy_a_spectator_acknowledges_every_36_ticks") {
    SendPolicy p;
    int sent = 0;
    for (std::uint64_t t = 1; t <= 360; ++t)
        sent += p.tick(std::nullopt, t) != Send::nothing ? 1 : 0;
    CHECK(sent == 10);
}

TEST_CASE("a_quiet_input_is_not_sent_and_the_next_change_goes_alone") {
    Harness h;
    h.connect(test::AcceptedFields{});
    const std::size_t before = h.sent.size();
    for (int i = 0; i < 10; ++i)
        h.connection.send_input(game::Input::move(2), static_cast<std::uint64_t>(16 * i));
    // The first tick (a change) and its copies on the next two; then
    // nothing: no state to acknowledge.
    CHECK(h.sent.size() == before + 3);
    CHECK(h.last_report().sequence == 1);
    CHECK(h.connection.newest_sent_sequence() == 1);
    h.connection.send_input(game::Input::move(5), 160);  // sequence 11
    const protocol::ClientReport r = h.last_report();
    CHECK(r.sequence == 11);
    // Sequences 2 to 10 never left: the server repeats 1's input on them.
    REQUIRE(r.inputs.size() == 1);
    CHECK(r.inputs[0] == game::Input::move(5));
}

TEST_CASE("applied_through_counts_the_ticks_the_server_repeated_an_unsent_input") {
    test::FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 0);
    const std::uint64_t held = room.tick();
    // Sequence 1 sent (a change, twice), 2 to 8 not.
    for (int i = 0; i < 8; ++i)
        h.connection.send_input(game::Input::move(2), static_cast<std::uint64_t>(16 * i));
    CHECK(h.connection.sent(1));
    CHECK_FALSE(h.connection.sent(2));
    // The server applied 1 on the next tick, then repeated it for four.
    const std::vector<game::Input> inputs(room.match().slot_count(), game::Input::move(2));
    room.step(inputs, 1);
    h.receive(room.update(held), 100);
    CHECK(h.connection.last_input_sequence() == 1);
    CHECK(h.connection.applied_through() == 1);
    const std::uint64_t applied = room.tick();
    for (int i = 0; i < 4; ++i)
        room.step(inputs, 1);
    h.receive(room.update(applied), 130);
    CHECK(h.connection.last_input_sequence() == 1);
    CHECK(h.connection.replica()->last_input_tick() == applied);
    CHECK(h.connection.applied_through() == 5);
}

}  // namespace
}  // namespace carom::client
