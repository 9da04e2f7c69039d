// What the server sends each client every tick: a FullState until the client
// holds the match, then ServerUpdates that bring a client's exact copy to the
// server's state bit for bit (the proof checks it at every one).
#include <doctest/doctest.h>

#include <cmath>

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

TEST_CASE("inputs are applied one per tick and updates report the last one applied") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    const auto slot = static_cast<game::Slot>(c.connect("ana")->body_as_Accepted()->slot());
    c.keep_copy(map_named("rink.json"));
    server.tick();  // the first update: a FullState
    REQUIRE(c.take() == 1);
    CHECK(c.full_states == 1);
    // Three inputs, each sent three times (redundancy), newest last.
    const std::vector<std::uint8_t> bits{game::Input::move(0).bits(), game::Input::move(4).bits(),
                                         game::Input::move(8, true).bits()};
    c.report(1, std::span(bits).first(1), c.copy().tick());
    c.report(2, std::span(bits).first(2), c.copy().tick());
    c.report(3, bits, c.copy().tick());
    CHECK(server.stats().inputs_duplicate == 3);
    server.tick();
    CHECK(server.room(0).match().last_input(slot) == game::Input::move(0));
    REQUIRE(c.take() == 1);
    CHECK(c.updates == 1);
    CHECK(c.copy().last_input_sequence() == 1);
    CHECK(c.copy().match().last_input(slot) == game::Input::move(0));
    server.tick();
    CHECK(server.room(0).match().last_input(slot) == game::Input::move(4));
    server.tick();
    REQUIRE(c.take() == 2);
    CHECK(c.copy().last_input_sequence() == 3);
    CHECK(c.copy().match().state_hash() == server.room(0).state_hash());
    server.tick();  // nothing new: the last input repeats
    CHECK(server.room(0).match().last_input(slot) == game::Input::move(8, true));
    CHECK(server.stats().inputs_repeated >= 1);
    // An input already applied is stale.
    c.report(1, std::span(bits).first(1), c.copy().tick());
    CHECK(server.stats().inputs_stale == 1);
    CHECK(c.failures.empty());
    // More new inputs than the queue holds between two ticks: the oldest go, counted.
    CHECK(server.stats().inputs_overflowed == 0);
    std::uint32_t sequence = 3;
    for (std::size_t i = 0; i < InputQueue::kMaxBuffered + 5; ++i)
        c.report(++sequence, std::span(bits).first(1), c.copy().tick());
    CHECK(server.stats().inputs_overflowed == 5);
}

TEST_CASE(
    "a FullState until acknowledged, then updates that keep the copy the server's bit for bit") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana", 0, true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("arena.json"));

    // To a client holding nothing, the FullState and its copy (the same
    // datagram) two ticks later; unacknowledged, it is not sent again at
    // once: updates go against it meanwhile, and the client that holds it
    // can read them.
    for (int t = 0; t < 5; ++t)
        server.tick();
    CHECK(server.stats().full_states == 2);
    CHECK(c.take() == 6);  // this scripted copy takes the copy too, a carom client drops it
    CHECK(c.copy().tick() == server.current_tick());
    CHECK(c.last_baseline == 1);

    // Acknowledging every tick: a minute of bots playing, goals, kick-offs.
    for (int t = 0; t < 3600; ++t) {
        c.ack(c.copy().tick());
        server.tick();
        REQUIRE(c.take() == 1);
        REQUIRE(c.copy().match().state_hash() == server.room(0).state_hash());
    }
    CHECK(c.last_baseline == server.current_tick() - 1);
    CHECK(server.stats().full_states == 2);
    CHECK(server.room(0).match().score(game::Team::left) +
              server.room(0).match().score(game::Team::right) >
          0);
    CHECK(c.failures.empty());
}

TEST_CASE("every datagram to a watcher of a full 8 v 8 room fits one datagram") {
    Link link;
    ServerConfig config = config_for("stadium.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("watcher-name-15", 0, true)->body_type() == net::Body::Accepted);
    for (int t = 0; t < 120; ++t)
        server.tick();
    std::size_t largest = 0;
    for (const Datagram& d : link.inbox[c.at()])
        largest = std::max(largest, d.bytes.size());
    CHECK(largest > 0);
    CHECK(largest <= protocol::kMaxDatagramBytes);
}

TEST_CASE("a player whose acknowledged tick has left the history gets a FullState") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    config.update_history = 4;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("arena.json"));
    server.tick();
    REQUIRE(c.take() == 1);
    const std::uint64_t acked = c.copy().tick();
    c.ack(acked);
    server.tick();
    REQUIRE(c.take() == 1);
    CHECK(c.last_baseline == acked);

    // The client acknowledges nothing newer while the room moves on past its
    // history: in the tick that lets go of its baseline, a FullState.
    const std::uint64_t full_before = server.stats().full_states;
    while (server.room(0).history().covers(acked)) {
        link.inbox[c.at()].clear();
        server.tick();
    }
    CHECK(server.stats().full_states == full_before + 1);
    const net::Packet* p = c.next();
    REQUIRE(p != nullptr);
    REQUIRE(p->body_as_FullState() != nullptr);
    CHECK(p->body_as_FullState()->tick() == server.current_tick());
    CHECK(p->body_as_FullState()->state_hash() == server.room(0).state_hash());
}

TEST_CASE(
    "a spectator's updates start from the update three back, its acknowledgement answered once") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    c.player = false;
    c.keep_copy(map_named("arena.json"));
    server.tick();
    REQUIRE(c.take() == 1);
    const std::uint64_t acked = c.copy().tick();
    c.ack(acked);
    // The first update after an acknowledgement starts from it (the client
    // times its round trip by it), the others from three updates back, also
    // once the acknowledgement is older than the history reaches.
    for (int t = 0; t < 100; ++t) {
        server.tick();
        REQUIRE(c.take() >= 1);
        if (t == 0) CHECK(c.last_baseline == acked);
        if (t >= 3 && server.current_tick() - 3 > acked)
            REQUIRE(c.last_baseline == server.current_tick() - 3);
        REQUIRE(c.copy().match().state_hash() == server.room(0).state_hash());
    }
    CHECK(server.stats().full_states == 1);  // the join's, acknowledged before its copy was due
    CHECK(c.failures.empty());
}

TEST_CASE("an acknowledgement from the future or of an older tick does not move the baseline") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("arena.json"));
    server.tick();
    REQUIRE(c.take() == 1);
    const std::uint64_t first = c.copy().tick();
    c.ack(first);
    server.tick();
    REQUIRE(c.take() == 1);
    const std::uint64_t second = c.copy().tick();
    CHECK(c.last_baseline == first);
    c.ack(second);
    CHECK(server.session(c.client_id())->acked == second);

    c.ack(first);  // older than the one acknowledged: ignored
    CHECK(server.session(c.client_id())->acked == second);
    server.tick();
    REQUIRE(c.take() == 1);
    CHECK(c.last_baseline == second);

    // A tick the server has not reached yet: a broken ack, refused.
    const std::uint64_t refused =
        server.stats().invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
    c.ack(server.current_tick() + 1);
    CHECK(server.stats().invalid[static_cast<std::size_t>(protocol::PacketError::malformed)] ==
          refused + 1);
    CHECK(server.session(c.client_id())->acked == second);
    CHECK(c.failures.empty());
}

TEST_CASE("a client that holds no state, or drops its copy, is sent a FullState") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("arena.json"));
    server.tick();
    REQUIRE(c.take() == 1);
    c.ack(c.copy().tick());
    for (int t = 0; t < 30; ++t)
        server.tick();
    CHECK(c.take() == 30);
    const std::uint64_t full_before = server.stats().full_states;
    // A client whose proof failed drops its copy and acknowledges nothing.
    c.copy().drop();
    c.ack(std::nullopt);
    server.tick();
    CHECK(server.stats().full_states == full_before + 1);
    CHECK(c.take() == 1);
    CHECK(c.full_states == 2);
    CHECK(c.copy().match().state_hash() == server.room(0).state_hash());
}

TEST_CASE("a session that acknowledges each FullState once gets no more than its budget") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("arena.json"));
    // Each FullState acknowledged once, then "I hold nothing" every tick: a
    // FullState due every tick, 600 ticks long.
    std::uint64_t states_acked = 0;
    for (int t = 0; t < 600; ++t) {
        server.tick();
        c.take();
        if (c.full_states != states_acked) {
            states_acked = c.full_states;
            c.ack(c.copy().tick());
        } else {
            c.ack(std::nullopt);
        }
    }
    // The burst, then one every FullStateBudget::kEveryTicks: 2 + 600 / 20 at most.
    const std::uint64_t budget = FullStateBudget::kBurst + 600 / FullStateBudget::kEveryTicks;
    MESSAGE(server.stats().full_states << " full states, " << server.stats().full_states_held_back
                                       << " held back, " << server.stats().full_state_bytes
                                       << " bytes");
    CHECK(server.stats().full_states <= budget);
    CHECK(server.stats().full_states >= budget - 2);
    CHECK(server.stats().full_states_held_back > 400);
    CHECK(server.stats().full_state_bytes > 0);
    // An honest client that loses its state after a quiet spell has one at once.
    for (int t = 0; t < 60; ++t) {
        server.tick();
        c.take();
        c.ack(c.copy().tick());
    }
    const std::uint64_t before = server.stats().full_states;
    c.copy().drop();
    c.ack(std::nullopt);
    server.tick();
    CHECK(server.stats().full_states == before + 1);
}

TEST_CASE(
    "a FullState to a client not yet heard is not sent again, and once heard within 1.5 round "
    "trips") {
    Link link;
    ServerConfig config = config_for("arena.json");
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    std::vector<std::uint64_t> sent_on;
    const auto tick = [&] {
        server.tick();
        if (server.stats().full_states != sent_on.size()) sent_on.push_back(server.current_tick());
    };
    // The client says nothing (its Accepted lost, say): the join's FullState
    // and its copy, then updates against it; no resend spends the budget the
    // FullState after its Accepted comes again will need.
    for (int t = 0; t < 40; ++t)
        tick();
    REQUIRE(sent_on.size() == 2);
    CHECK(sent_on[1] == sent_on[0] + 2);
    CHECK(server.stats().updates == 39);
    CHECK(server.stats().full_states_held_back == 0);

    // Another client speaks 4 ticks after its join's FullState left, holding
    // nothing (both lost): a round trip of 4, and the FullState goes again 6
    // ticks after it.
    ScriptedClient d(server, link, endpoint(2, 5000));
    REQUIRE(d.connect("ear", 0, true)->body_type() == net::Body::Accepted);
    const std::uint64_t before = server.stats().full_states;
    std::optional<std::uint64_t> first;
    for (int t = 0; t < 12; ++t) {
        server.tick();
        if (!first && server.stats().full_states > before) first = server.current_tick();
        if (first && server.current_tick() == *first + 4) d.ack(std::nullopt);
    }
    REQUIRE(first);
    REQUIRE(server.session(d.client_id()) != nullptr);
    CHECK(server.session(d.client_id())->round_trip.ticks() == 4);
    CHECK(server.stats().full_states == before + 3);  // the join's, its copy, the resend
}

TEST_CASE("a FullState not acknowledged is sent again after about 1.5 measured round trips") {
    Link link;
    ServerConfig config = config_for("arena.json");
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    // Acknowledgements that come back 4 ticks after their tick: a round trip of 4.
    for (int t = 0; t < 120; ++t) {
        server.tick();
        if (server.current_tick() > 10) c.ack(server.current_tick() - 4);
    }
    REQUIRE(server.session(c.client_id()) != nullptr);
    CHECK(server.session(c.client_id())->round_trip.ticks() == 4);
    CHECK(server.session(c.client_id())->round_trip.full_state_resend_ticks() == 6);
    // The copy lost: a FullState at once, its copy 2 ticks on, then none
    // acknowledged: sent again 6 ticks after it, not 20.
    const std::uint64_t before = server.stats().full_states;
    c.ack(std::nullopt);
    std::vector<std::uint64_t> sent_on;
    for (int t = 0; t < 12; ++t) {
        server.tick();
        if (server.stats().full_states != before + sent_on.size())
            sent_on.push_back(server.current_tick());
    }
    REQUIRE(sent_on.size() == 3);
    CHECK(sent_on[1] == sent_on[0] + 2);
    CHECK(sent_on[2] == sent_on[0] + 6);
}

TEST_CASE("an update is sealed for its session and checks the state after its tick") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("arena.json"));
    server.tick();
    REQUIRE(c.take() == 1);
    c.ack(c.copy().tick());
    server.tick();
    REQUIRE(link.inbox[c.at()].size() == 1);
    const Datagram sealed = link.inbox[c.at()].front();
    CHECK(protocol::is_sealed(sealed.bytes));
    CHECK(sealed.update() == nullptr);  // nothing in it reads without the keys
    // Neither with another session's keys, nor with any byte flipped.
    protocol::SessionKeys other;
    other.receive = protocol::make_key_pair().public_key;
    protocol::DatagramBuffer out{};
    protocol::SealRefusal refused{};
    CHECK(protocol::SessionSeal(other).open(sealed.bytes, out, refused).empty());
    CHECK(refused == protocol::SealRefusal::bad_tag);
    for (std::size_t i = 0; i < sealed.bytes.size(); ++i) {
        std::vector<std::uint8_t> flipped = sealed.bytes;
        flipped[i] ^= 1;
        protocol::SessionSeal copy = *c.seal();
        CHECK(copy.open(flipped, out, refused).empty());
    }
    const std::optional<Datagram> d = c.peek(sealed);
    const net::ServerUpdate* u = d->update();
    REQUIRE(u != nullptr);
    CHECK(u->head()->state() == protocol::state_check(server.room(0).state_hash()));
    // A copy one bit off is caught, and left as it was.
    client::Replica& copy = c.copy();
    const std::uint64_t held = copy.tick();
    protocol::RoomState drifted;
    drifted.tick = held;
    drifted.match = copy.match().save();
    drifted.match.pucks[0].disk.position.x =
        std::nextafter(drifted.match.pucks[0].disk.position.x, 1e9);
    drifted.match_seed = copy.match_seed();
    drifted.match_start_tick = copy.match_start_tick();
    drifted.last_input_sequence = copy.last_input_sequence();
    for (game::Slot s = 0; s < copy.match().slot_count(); ++s)
        drifted.bots.push_back(copy.bot(s));
    game::Match probe(map_named("arena.json"), copy.match_seed());
    probe.restore(drifted.match);
    drifted.state_hash = probe.state_hash();
    REQUIRE(copy.restore(drifted).ok());
    CHECK(c.take() == 0);
    REQUIRE(c.failures.size() == 1);
    CHECK(c.failures[0].find("state check") != std::string::npos);
    CHECK(copy.tick() == held);
}
