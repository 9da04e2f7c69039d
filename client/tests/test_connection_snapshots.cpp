// Snapshots through the frame ring (full, then deltas), ordering, loss, and
// datagrams that must be dropped and counted without harm.
#include <cstdio>
#include <cstring>
#include <random>

#include <doctest/doctest.h>

#include "fake_server.hpp"

namespace carom::client {
namespace {

using test::Harness;

bool same_disks(const protocol::Frame& a, const protocol::Frame& b) {
    if (a.disks.size() != b.disks.size()) return false;
    for (std::size_t i = 0; i < a.disks.size(); ++i) {
        if (std::memcmp(&a.disks[i], &b.disks[i], sizeof(net::DiskQ)) != 0) return false;
    }
    return true;
}

std::size_t invalid(const Harness& h, protocol::PacketError e) {
    return h.connection.stats().invalid[static_cast<std::size_t>(e)];
}

TEST_CASE("full_then_delta_snapshots_decode_through_the_ring") {
    Harness h;
    h.connect();
    const protocol::Frame f3 = test::frame(3, 4);
    h.receive(test::snapshot(f3, nullptr), 10);
    REQUIRE(h.connection.latest_frame() != nullptr);
    CHECK(same_disks(*h.connection.latest_frame(), f3));

    // Tick 6 against 3 changes every disk; tick 9 against 6 changes only disk 2.
    const protocol::Frame f6 = test::frame(6, 4);
    h.receive(test::snapshot(f6, &f3), 20);
    protocol::Frame f9 = f6;
    f9.tick = 9;
    f9.score = {1, 0};
    f9.disks[2] = protocol::quantise({50.0, 25.0}, {0.0, 0.0});
    const test::Bytes delta = test::snapshot(f9, &f6);
    CHECK(delta.size() < test::snapshot(f9, nullptr).size());
    h.receive(delta, 30);

    const protocol::Frame* latest = h.connection.latest_frame();
    REQUIRE(latest != nullptr);
    CHECK(latest->tick == 9);
    CHECK(latest->score[0] == 1);
    CHECK(same_disks(*latest, f9));
    CHECK(h.connection.frame_at(3) != nullptr);
    CHECK(h.connection.frame_at(6) != nullptr);
    const ConnectionStats& s = h.connection.stats();
    CHECK(s.snapshots_received == 3);
    CHECK(s.snapshots_full == 1);
    CHECK(s.snapshots_delta == 2);
    CHECK(s.snapshot_bytes > delta.size());
    CHECK(s.snapshots_missed == 0);
}

TEST_CASE("a_delta_against_a_frame_not_held_is_dropped_and_counted") {
    Harness h;
    h.connect();
    const protocol::Frame f3 = test::frame(3, 4);
    h.receive(test::snapshot(test::frame(6, 4), &f3), 10);  // 3 never arrived
    CHECK(h.connection.latest_frame() == nullptr);
    CHECK(h.connection.stats().snapshots_undecodable == 1);
    CHECK(h.connection.stats().snapshots_received == 0);
}

TEST_CASE("frames_older_than_the_ring_are_forgotten") {
    Harness h;
    h.connect();
    h.receive(test::snapshot(test::frame(1, 2), nullptr), 0);
    for (std::uint64_t t = 2; t <= 1 + Connection::kFrameRing; ++t)
        h.receive(test::snapshot(test::frame(t, 2), nullptr), t);
    CHECK(h.connection.frame_at(1) == nullptr);
    CHECK(h.connection.frame_at(2) != nullptr);
    const protocol::Frame f1 = test::frame(1, 2);
    h.receive(test::snapshot(test::frame(100, 2), &f1), 100);
    CHECK(h.connection.stats().snapshots_undecodable == 1);
}

TEST_CASE("older_and_duplicate_snapshots_are_dropped_as_out_of_order") {
    Harness h;
    h.connect();
    h.receive(test::snapshot(test::frame(9, 3), nullptr), 0);
    h.receive(test::snapshot(test::frame(6, 3), nullptr), 1);
    h.receive(test::snapshot(test::frame(9, 3), nullptr), 2);
    CHECK(h.connection.stats().snapshots_out_of_order == 2);
    CHECK(h.connection.stats().snapshots_received == 1);
    CHECK(h.connection.latest_frame()->tick == 9);
}

TEST_CASE("tick_gaps_estimate_loss_at_the_snapshot_rate") {
    Harness h;
    h.connect();  // 60 Hz ticks, 20 Hz snapshots: one every 3 ticks
    for (const std::uint64_t t : std::initializer_list<std::uint64_t>{3, 6, 12, 15, 27})
        h.receive(test::snapshot(test::frame(t, 2), nullptr), t);
    // Missing: 9, then 18, 21, 24.
    CHECK(h.connection.stats().snapshots_missed == 4);
    CHECK(h.connection.stats().loss_estimate() == doctest::Approx(4.0 / 9.0));
}

TEST_CASE("snapshots_keep_the_roster_and_the_last_applied_input") {
    Harness h;
    h.connect();
    const std::vector<protocol::RosterEntry> roster = {{0, true, "ann", false, 2},
                                                       {1, true, "bot", true, 0}};
    protocol::SnapshotExtras extras;
    extras.roster = &roster;
    extras.last_input_sequence = 17;
    h.receive(test::snapshot(test::frame(3, 4), nullptr, extras), 0);
    REQUIRE(h.connection.roster().size() == 2);
    CHECK(h.connection.roster()[0].name == "ann");
    CHECK(h.connection.roster()[0].goals == 2);
    CHECK(h.connection.roster()[1].bot);
    CHECK(h.connection.last_input_sequence() == 17);

    // Without a roster the last one stays.
    protocol::SnapshotExtras later;
    later.last_input_sequence = 20;
    h.receive(test::snapshot(test::frame(6, 4), nullptr, later), 1);
    CHECK(h.connection.roster().size() == 2);
    CHECK(h.connection.last_input_sequence() == 20);
}

TEST_CASE("protocol_3_roster_teams_goal_credit_draw_and_the_match_of_full_snapshots") {
    Harness h;
    h.connect();
    // Slot 0 on the right: the client takes the roster's word, not the slot rule.
    const std::vector<protocol::RosterEntry> roster = {
        {0, true, "ann", false, 1, game::Team::right}, {1, true, "bob", true, 0, game::Team::left}};
    const std::vector<game::MatchEvent> events = {
        {game::MatchEvent::Kind::goal, 401, game::Team::right, 0, 0, false, std::nullopt},
        {game::MatchEvent::Kind::goal, 402, game::Team::left, 1, std::nullopt, false, 0},
        {game::MatchEvent::Kind::end, 403, game::Team::left, 0, std::nullopt, true, std::nullopt}};
    protocol::SnapshotExtras extras;
    extras.roster = &roster;
    extras.events = events;
    extras.match_seed = 0xC0FFEE;
    extras.match_start_tick = 300;
    const protocol::Frame full = test::frame(405, 4);
    h.receive(test::snapshot(full, nullptr, extras), 0);
    REQUIRE(h.connection.roster().size() == 2);
    CHECK(h.connection.roster()[0].team == game::Team::right);
    CHECK(h.connection.roster()[1].team == game::Team::left);
    const std::vector<client::ReceivedEvent> got = h.connection.take_events();
    REQUIRE(got.size() == 3);
    CHECK(got[0].kind == game::MatchEvent::Kind::goal);
    CHECK(got[0].tick == 401);  // the server tick, as sent
    CHECK(got[0].team == game::Team::right);
    CHECK(got[0].scorer == 0);
    CHECK(got[0].own_goal_by == -1);
    CHECK(got[1].scorer == -1);
    CHECK(got[1].own_goal_by == 0);
    CHECK(got[1].puck == 1);
    CHECK(got[2].kind == game::MatchEvent::Kind::end);
    CHECK(got[2].draw);
    REQUIRE(h.connection.match_info().has_value());
    CHECK(h.connection.match_info()->seed == 0xC0FFEE);
    CHECK(h.connection.match_info()->start_tick == 300);

    // A delta carries no match: the one of the last full snapshot stays.
    protocol::SnapshotExtras later;
    h.receive(test::snapshot(test::frame(408, 4), &full, later), 1);
    CHECK(h.connection.stats().snapshots_delta == 1);
    REQUIRE(h.connection.match_info().has_value());
    CHECK(h.connection.match_info()->start_tick == 300);
}

TEST_CASE("events_resent_until_acknowledged_are_taken_once") {
    Harness h;
    h.connect();
    const game::MatchEvent goal{
        game::MatchEvent::Kind::goal, 401, game::Team::left, 0, 1, false, std::nullopt};
    const game::MatchEvent kickoff{game::MatchEvent::Kind::kickoff,
                                   521,
                                   game::Team::left,
                                   0,
                                   std::nullopt,
                                   false,
                                   std::nullopt};
    const std::vector<game::MatchEvent> first = {goal};
    const std::vector<game::MatchEvent> again = {goal};
    const std::vector<game::MatchEvent> both = {goal, kickoff};
    protocol::SnapshotExtras extras;
    extras.events = first;
    h.receive(test::snapshot(test::frame(402, 4), nullptr, extras), 0);
    extras.events = again;
    h.receive(test::snapshot(test::frame(404, 4), nullptr, extras), 1);
    extras.events = both;
    h.receive(test::snapshot(test::frame(522, 4), nullptr, extras), 2);
    const std::vector<client::ReceivedEvent> got = h.connection.take_events();
    REQUIRE(got.size() == 2);
    CHECK(got[0].tick == 401);
    CHECK(got[0].scorer == 1);
    CHECK(got[1].tick == 521);
    CHECK(got[1].kind == game::MatchEvent::Kind::kickoff);
}

TEST_CASE("garbage_is_dropped_and_counted_by_reason") {
    Harness h;
    h.connect();
    const test::Bytes good = test::snapshot(test::frame(3, 4), nullptr);

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

    flatbuffers::FlatBufferBuilder b;
    net::PacketBuilder empty(b);
    empty.add_protocol(protocol::kProtocolVersion);
    net::FinishPacketBuffer(b, empty.Finish());
    h.receive(test::copy_of({b.GetBufferPointer(), b.GetSize()}), 0);
    CHECK(invalid(h, protocol::PacketError::no_body) == 1);

    CHECK(h.connection.stats().invalid_total() == 6);
    CHECK(h.connection.stats().packets_in == 2 + 6);
    CHECK(h.connection.stats().snapshots_received == 0);
    CHECK(h.connection.state() == State::connected);
    h.receive(good, 0);
    CHECK(h.connection.stats().snapshots_received == 1);
}

TEST_CASE("another_protocol_version_is_dropped_and_counted") {
    Harness h;
    h.connect();
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateKeepAlive(b, 1);
    net::PacketBuilder packet(b);
    packet.add_protocol(protocol::kProtocolVersion + 1);
    packet.add_body_type(net::Body::KeepAlive);
    packet.add_body(body.Union());
    net::FinishPacketBuffer(b, packet.Finish());
    h.receive(test::copy_of({b.GetBufferPointer(), b.GetSize()}), 0);
    CHECK(h.connection.stats().wrong_protocol == 1);
}

TEST_CASE("a_packet_at_an_unaligned_address_is_still_read") {
    Harness h;
    h.connect();
    const test::Bytes good = test::snapshot(test::frame(3, 4), nullptr);
    test::Bytes shifted(good.size() + 1);
    std::memcpy(shifted.data() + 1, good.data(), good.size());
    h.connection.on_datagram(std::span(shifted).subspan(1), 0);
    CHECK(h.connection.stats().snapshots_received == 1);
}

TEST_CASE("random_and_corrupted_datagrams_never_crash") {
    const unsigned seed = 0x5eed0024U;
    std::printf("random_and_corrupted_datagrams_never_crash: seed %u\n", seed);
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    Harness h;
    h.connect();
    const protocol::Frame f3 = test::frame(3, 5);
    const std::vector<test::Bytes> seeds = {
        test::snapshot(f3, nullptr),
        test::snapshot(test::frame(6, 5), &f3),
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
            h.connect({}, now);
            ++reconnects;
        }
    }
    const ConnectionStats& s = h.connection.stats();
    // Every datagram was counted once: the two of each handshake and the fuzz.
    CHECK(s.packets_in == 2 * (1 + reconnects) + kDatagrams);
    CHECK(s.invalid_total() > 0);
    CHECK(s.snapshots_received > 0);  // some flips leave a snapshot that still decodes

    // Nothing the fuzz left behind stops a good snapshot from being applied.
    // (A flipped tick may have moved the newest tick far on: the good one comes after it.)
    const std::uint64_t received = s.snapshots_received;
    const protocol::Frame* newest = h.connection.latest_frame();
    const std::uint64_t next_tick = (newest != nullptr ? newest->tick : 0) + 3;
    const protocol::Frame good = test::frame(next_tick, 5);
    h.receive(test::snapshot(good, nullptr), ++now);
    CHECK(s.snapshots_received == received + 1);
    REQUIRE(h.connection.latest_frame() != nullptr);
    CHECK(h.connection.latest_frame()->tick == next_tick);
    CHECK(same_disks(*h.connection.latest_frame(), good));
}

}  // namespace
}  // namespace carom::client
