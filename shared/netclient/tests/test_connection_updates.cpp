// Updates: the client's copy of the match taken from a FullState and moved
// on by ServerUpdates, bit for bit; what it refuses, and what it counts.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <random>

#include "carom/client/testing/fake_server.hpp"
#include "carom/game/bot.hpp"

namespace carom::client {
namespace {

using test::FakeRoom;
using test::Harness;

std::uint64_t invalid(const Harness& h, protocol::PacketError e) {
    return h.connection.stats().invalid[static_cast<std::size_t>(e)];
}

// Inputs for every slot from a seeded generator: the room plays.
std::vector<game::Input> some_inputs(std::mt19937& rng, std::uint32_t slots) {
    std::vector<game::Input> in(slots);
    for (auto& i : in)
        i = game::Input::from_bits(static_cast<std::uint8_t>(rng() % 64));
    return in;
}

TEST_CASE("a_full_state_then_updates_keep_the_copy_the_servers_bit_for_bit") {
    FakeRoom room("arena");
    Harness h;
    h.join(room);
    std::mt19937 rng(5);
    room.step(some_inputs(rng, room.match().slot_count()), 0);
    h.receive(room.full_state(), 0);
    REQUIRE(h.connection.replica()->holds());
    CHECK(h.connection.stats().full_states == 1);
    std::uint64_t held = room.tick();
    std::uint32_t applied = 0;
    for (int t = 0; t < 600; ++t) {
        // Inputs change every few ticks; the client's sequence moves on.
        const auto inputs = some_inputs(rng, room.match().slot_count());
        for (int k = 0; k < 1 + t % 4; ++k)
            room.step(inputs, ++applied);
        h.receive(room.update(held), static_cast<std::uint64_t>(t));
        REQUIRE(h.connection.replica()->tick() == room.tick());
        REQUIRE(h.connection.replica()->match().state_hash() == room.match().state_hash());
        held = room.tick();
    }
    CHECK(h.connection.replica()->match().puck_disk(0).position ==
          room.match().puck_disk(0).position);
    // The copy's history holds the ticks it stepped through, the newest last.
    const std::deque<Moment>& history = h.connection.replica()->history();
    REQUIRE(history.size() == Replica::kHistoryTicks);
    CHECK(history.back().tick == room.tick());
    CHECK(history.back().pucks[0].position == room.match().puck_disk(0).position);
    for (std::size_t i = 1; i < history.size(); ++i)
        CHECK(history[i].tick == history[i - 1].tick + 1);
    CHECK(h.connection.last_input_sequence() == applied);
    CHECK(h.connection.stats().updates == 600);
    CHECK(h.connection.stats().hash_mismatches == 0);
}

TEST_CASE("an_update_from_a_baseline_not_held_is_dropped_and_counted") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    room.step_idle();
    // No state yet: nothing to step.
    h.receive(room.update(room.tick() - 1), 0);
    CHECK(h.connection.stats().undecodable == 1);
    h.receive(room.full_state(), 0);
    const std::uint64_t held = room.tick();
    room.step_idle(3);
    // A baseline after the held tick (an ack the client never sent).
    h.receive(room.update(held + 1), 0);
    CHECK(h.connection.stats().undecodable == 2);
    CHECK(h.connection.replica()->tick() == held);
    h.receive(room.update(held), 0);
    CHECK(h.connection.replica()->tick() == room.tick());
}

TEST_CASE("a_spectator_steps_an_update_from_a_baseline_it_passed_and_drops_a_copy_left_behind") {
    FakeRoom room("arena", std::nullopt);
    Harness h;
    h.join(room, -1);
    std::mt19937 rng(3);
    h.receive(room.full_state(), 0);
    const std::uint64_t full = room.tick();
    room.step(some_inputs(rng, room.match().slot_count()));
    room.step(some_inputs(rng, room.match().slot_count()));
    h.receive(room.update(full), 0);
    const std::uint64_t held = room.tick();
    // The server's update starts from a tick between the FullState and the
    // one held, which the copy never held: it carries every change after it.
    for (int t = 0; t < 3; ++t)
        room.step(some_inputs(rng, room.match().slot_count()));
    h.receive(room.update(held - 1), 0);
    CHECK(h.connection.replica()->tick() == room.tick());
    CHECK(h.connection.replica()->match().state_hash() == room.match().state_hash());
    CHECK(h.connection.stats().undecodable == 0);
    // Updates from ticks after the held one, three in a row: the copy is
    // dropped, and the next acknowledgement says it holds nothing.
    const std::uint64_t now_held = room.tick();
    for (int t = 0; t < 3; ++t) {
        room.step_idle(2);
        h.receive(room.update(now_held + 1), 0);
    }
    CHECK(h.connection.stats().undecodable == 3);
    CHECK_FALSE(h.connection.replica()->holds());
    h.connection.send_input(game::Input::idle(), 100);
    CHECK_FALSE(h.last_report().ack.has_value());
}

TEST_CASE("a_player_steps_updates_from_a_full_state_resent_after_the_one_it_took") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 0);
    const std::uint64_t full = room.tick();
    room.step_idle(2);
    h.receive(room.update(full), 0);
    // The server heard no acknowledgement and sent the state again, a tick
    // on (no update of that tick); it lands after a newer update was taken,
    // and the updates from it step the copy.
    room.step_idle();
    const test::Bytes again = room.full_state();
    const std::uint64_t resent = room.tick();
    room.step_idle();
    h.receive(room.update(full), 0);
    h.receive(again, 0);
    CHECK(h.connection.stats().out_of_order == 1);
    room.step_idle(2);
    h.receive(room.update(resent), 0);
    CHECK(h.connection.stats().undecodable == 0);
    CHECK(h.connection.replica()->tick() == room.tick());
    CHECK(h.connection.replica()->match().state_hash() == room.match().state_hash());
}

TEST_CASE("older_and_duplicate_updates_are_dropped_as_out_of_order") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 0);
    const std::uint64_t held = room.tick();
    room.step_idle();
    const test::Bytes first = room.update(held);
    room.step_idle();
    const test::Bytes second = room.update(held);
    h.receive(second, 0);
    h.receive(first, 0);   // older than the state held
    h.receive(second, 0);  // a duplicate
    CHECK(h.connection.stats().out_of_order == 2);
    CHECK(h.connection.stats().states_taken == 2);
    CHECK(h.connection.replica()->match().state_hash() == room.match().state_hash());
}

TEST_CASE("tick_gaps_estimate_loss_at_the_update_rate") {
    FakeRoom room("rink");
    Harness h;
    test::AcceptedFields f;
    f.map_hash = room.map_hash();
    f.update_rate_hz = 60;
    h.connect(f);
    REQUIRE(h.connection.set_map(room.map()));
    h.receive(room.full_state(), 0);
    const std::uint64_t held = room.tick();
    room.step_idle(4);  // three updates lost
    h.receive(room.update(held), 0);
    CHECK(h.connection.stats().updates_missed == 3);
    CHECK(h.connection.stats().loss_estimate() == doctest::Approx(3.0 / 5.0));
}

TEST_CASE("an_update_further_ahead_than_the_clock_allows_is_dropped_before_any_step") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 1000);
    const std::uint64_t held = room.tick();
    // 200 ticks (3.3 s at 60 Hz) in no time at all: even sealed, not stepped.
    room.step_idle(200);
    h.receive(room.update(held), 1000);
    CHECK(h.connection.stats().far_ahead == 1);
    CHECK(h.connection.replica()->tick() == held);
    // Once the clock has moved on as far, the same update is taken.
    h.receive(room.update(held), 1000 + 200 * 1000 / 60);
    CHECK(h.connection.stats().far_ahead == 1);
    CHECK(h.connection.replica()->tick() == room.tick());
    CHECK(h.connection.replica()->match().state_hash() == room.match().state_hash());
}

TEST_CASE("updates_before_the_map_are_counted_not_taken") {
    FakeRoom room("rink");
    Harness h;
    test::AcceptedFields f;
    h.connect(f);
    h.receive(room.full_state(), 0);
    CHECK(h.connection.stats().before_map == 1);
    CHECK(h.connection.replica() == nullptr);
    REQUIRE(h.connection.set_map(room.map()));
    h.receive(room.full_state(), 0);
    CHECK(h.connection.replica()->holds());
}

TEST_CASE("forged_updates_change_nothing_and_one_drifted_state_drops_the_copy") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 0);
    const std::uint64_t held = room.tick();
    const std::uint64_t hash = h.connection.replica()->match().state_hash();
    room.step_idle();
    // Forged updates (in the clear, or sealed with other keys), however
    // many: nothing changes, nothing is stepped, no resync.
    for (std::uint32_t i = 0; i < 50; ++i) {
        h.receive_raw(room.update(held), 0);
        h.receive_raw(test::forged_seal(room.update(held)), 0);
    }
    CHECK(h.connection.stats().forged_total() == 100);
    CHECK(h.connection.stats().hash_mismatches == 0);
    CHECK(h.connection.stats().resyncs == 0);
    CHECK(h.connection.replica()->tick() == held);
    CHECK(h.connection.replica()->match().state_hash() == hash);
    // The real one is taken.
    h.receive(room.update(held), 0);
    CHECK(h.connection.replica()->tick() == room.tick());
    // One sealed update whose state check the copy fails: the copy drifted;
    // the client drops it at once and asks for a FullState.
    const std::uint64_t now_held = room.tick();
    room.step_idle();
    const auto wrong =
        static_cast<std::uint16_t>(protocol::state_check(room.match().state_hash()) ^ 1);
    h.receive(room.drifted_update(now_held, wrong), 0);
    CHECK(h.connection.stats().hash_mismatches == 1);
    CHECK(h.connection.stats().resyncs == 1);
    CHECK_FALSE(h.connection.replica()->holds());
    h.connection.send_input(game::Input::idle(), 10);
    CHECK_FALSE(h.last_report(room.tick()).ack.has_value());
    h.receive(room.full_state(), 20);
    CHECK(h.connection.replica()->holds());
    CHECK(h.connection.replica()->match().state_hash() == room.match().state_hash());
}

TEST_CASE("the_roster_and_the_events_come_from_the_copy") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 0);
    const Replica& replica = *h.connection.replica();
    const game::Match& copy = replica.match();
    REQUIRE(copy.slot_count() == room.match().slot_count());
    CHECK(replica.bot(0));
    CHECK_FALSE(replica.bot(1));
    CHECK(copy.name(1) == "p1");
    CHECK(copy.team_of(0) == game::Team::left);
    CHECK(copy.team_of(copy.slot_count() - 1) == game::Team::right);
    // Play with bot inputs until a goal: its event, stamped with the server tick.
    std::uint64_t held = room.tick();
    std::optional<std::uint64_t> goal_tick;
    std::vector<ServerEvent> events;
    for (int t = 0; t < 60 * 300 && !goal_tick; ++t) {
        std::vector<game::Input> in(room.match().slot_count());
        for (game::Slot s = 0; s < in.size(); ++s)
            in[s] = game::bot_input(room.match(), s);
        const std::uint32_t before =
            room.match().score(game::Team::left) + room.match().score(game::Team::right);
        room.step(in);
        if (room.match().score(game::Team::left) + room.match().score(game::Team::right) > before)
            goal_tick = room.tick();
        h.receive(room.update(held), 0);
        held = room.tick();
        for (const ServerEvent& e : h.connection.take_events())
            events.push_back(e);
    }
    REQUIRE(goal_tick.has_value());
    REQUIRE_FALSE(events.empty());
    CHECK(events.back().kind == game::MatchEvent::Kind::goal);
    CHECK(events.back().tick == *goal_tick);  // a server tick: 100 more than the match's
    std::uint32_t goals = 0;
    for (game::Slot s = 0; s < h.connection.replica()->match().slot_count(); ++s)
        goals += h.connection.replica()->match().goals(s);
    CHECK(goals <= 1);
}

TEST_CASE("garbage_is_dropped_and_counted_by_reason") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    const test::Bytes good = room.full_state();

    h.receive({}, 0);
    h.receive({1, 2, 3}, 0);
    CHECK(invalid(h, protocol::PacketError::too_short) == 2);

    h.receive(test::Bytes(protocol::kMaxDatagramBytes + 1, 0), 0);
    CHECK(invalid(h, protocol::PacketError::too_long) == 1);

    test::Bytes wrong_id = good;
    std::memcpy(wrong_id.data() + 4, "XNET", 4);
    h.receive(wrong_id, 0);
    CHECK(invalid(h, protocol::PacketError::bad_identifier) == 1);

    const test::Bytes truncated(good.begin(), good.begin() + static_cast<long>(good.size() / 2));
    h.receive(truncated, 0);
    CHECK(invalid(h, protocol::PacketError::malformed) == 1);

    // A Packet without a body (built field by field: the builder refuses one).
    flatbuffers::FlatBufferBuilder b;
    const auto start = b.StartTable();
    b.AddElement<std::uint32_t>(net::Packet::VT_PROTOCOL, protocol::kProtocolVersion, 0);
    b.Finish(flatbuffers::Offset<net::Packet>(b.EndTable(start)), protocol::kPacketIdentifier);
    h.receive(test::copy_of({b.GetBufferPointer(), b.GetSize()}), 0);
    CHECK(invalid(h, protocol::PacketError::malformed) == 2);

    CHECK(h.connection.stats().invalid_total() == 6);
    CHECK(h.connection.stats().packets_in == 2 + 6);
    CHECK(h.connection.stats().states_taken == 0);
    CHECK(h.connection.state() == State::connected);
    h.receive(good, 0);
    CHECK(h.connection.stats().states_taken == 1);
}

TEST_CASE("another_protocol_version_is_dropped_and_counted") {
    Harness h;
    h.connect();
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateKeepAlive(b);
    net::PacketBuilder packet(b);
    packet.add_protocol(protocol::kProtocolVersion + 1);
    packet.add_body_type(net::Body::KeepAlive);
    packet.add_body(body.Union());
    net::FinishPacketBuffer(b, packet.Finish());
    h.receive(test::copy_of({b.GetBufferPointer(), b.GetSize()}), 0);
    CHECK(h.connection.stats().wrong_protocol == 1);
}

TEST_CASE("a_datagram_at_an_unaligned_address_is_still_read") {
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    h.receive(room.full_state(), 0);
    room.step_idle();
    const test::Bytes good = h.server.seal(room.update(room.tick() - 1));
    test::Bytes shifted(good.size() + 1);
    std::memcpy(shifted.data() + 1, good.data(), good.size());
    h.connection.on_datagram(std::span(shifted).subspan(1), 0);
    CHECK(h.connection.stats().states_taken == 2);
}

TEST_CASE("random_and_corrupted_datagrams_never_crash") {
    const unsigned seed = 0x5eed0025U;
    std::printf("random_and_corrupted_datagrams_never_crash: seed %u\n", seed);
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    FakeRoom room("rink");
    Harness h;
    h.join(room);
    const test::Bytes full = room.full_state();
    const std::uint64_t held = room.tick();
    room.step_idle(2);
    const std::vector<test::Bytes> seeds = {
        full,
        room.update(held),
        test::accepted({}),
        test::denied(net::DenyReason::server_full, "x"),
        test::server_disconnect(net::DisconnectReason::timeout, "y"),
        test::challenge(5)};
    std::uint64_t now = 0;
    std::uint64_t reconnects = 0;
    constexpr int kDatagrams = 20000;
    for (int i = 0; i < kDatagrams; ++i) {
        test::Bytes bytes = seeds[rng() % seeds.size()];
        const unsigned flips = 1 + rng() % 4;
        for (unsigned f = 0; f < flips; ++f)
            bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(1U << (rng() % 8));
        if (rng() % 4 == 0) bytes.resize(rng() % (bytes.size() + 1));
        h.receive(bytes, ++now);
        if (h.connection.state() == State::closed) {
            test::AcceptedFields f;
            f.map_hash = room.map_hash();
            h.connect(f, now);
            ++reconnects;
        }
    }
    const ConnectionStats& s = h.connection.stats();
    // Every datagram was counted once: the two of each handshake and the fuzz.
    CHECK(s.packets_in == 2 * (1 + reconnects) + kDatagrams);
    CHECK(s.invalid_total() > 0);

    // After a reconnect (a flipped tick may have moved the copy's far on), a
    // good state and update are taken.
    test::AcceptedFields f;
    f.map_hash = room.map_hash();
    h.connect(f, ++now);
    room.step_idle(30);
    h.receive(room.full_state(), ++now);
    const std::uint64_t state_tick = room.tick();
    room.step_idle();
    h.receive(room.update(state_tick), ++now);
    REQUIRE(h.connection.replica()->holds());
    CHECK(h.connection.replica()->tick() == room.tick());
    CHECK(h.connection.replica()->match().state_hash() == room.match().state_hash());
}

}  // namespace
}  // namespace carom::client
