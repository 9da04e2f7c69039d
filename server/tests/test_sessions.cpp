#include <doctest/doctest.h>

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

// A rink whose silent players time out after timeout_s and keep their slot grace_s.
ServerConfig rink_with_timeouts(double timeout_s, double grace_s) {
    ServerConfig config = config_for("rink.json");
    config.timeout_s = timeout_s;
    config.grace_s = grace_s;
    return config;
}

void run(Server& server, int ticks) {
    for (int t = 0; t < ticks; ++t)
        server.tick();
}

}  // namespace

TEST_CASE("a silent player times out, keeps its slot for the grace window, then loses it") {
    Link link;
    InlineDiskWork disk;
    Server server(rink_with_timeouts(1.0, 2.0), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000), 7);
    const net::Packet* p = c.connect("ana");
    REQUIRE(p->body_type() == net::Body::Accepted);
    const auto slot = static_cast<game::Slot>(p->body_as_Accepted()->slot());
    const std::uint32_t id = c.client_id();

    run(server, 62);
    const net::Packet* bye = c.newest(net::Body::Disconnect);
    REQUIRE(bye != nullptr);
    CHECK(bye->body_as_Disconnect()->reason() == net::DisconnectReason::timeout);
    REQUIRE(server.session(id) != nullptr);
    CHECK_FALSE(server.session(id)->connected);
    CHECK(server.room(0).match().active(slot));  // still in the match during grace

    // Inputs from the old address are no longer accepted.
    c.keep_alive();
    CHECK(server.stats().dropped[static_cast<std::size_t>(Drop::unknown_sender)] == 1);

    run(server, 2 * 60 + 2);
    CHECK(server.session(id) == nullptr);
    // Its slot is free, and the room, with nobody left in it, sleeps.
    CHECK(server.room(0).clients() == 0);
    CHECK(server.room(0).asleep());
}

TEST_CASE("a player who comes back within the grace window with its token gets the same slot") {
    Link link;
    InlineDiskWork disk;
    Server server(rink_with_timeouts(1.0, 5.0), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000), 1234);
    const net::Packet* p = c.connect("ana");
    const auto slot = p->body_as_Accepted()->slot();
    const std::uint32_t id = c.client_id();
    // A second player, so the returning one could not simply get the first free slot back.
    ScriptedClient other(server, link, endpoint(2, 5000), 99);
    REQUIRE(other.connect("bob")->body_type() == net::Body::Accepted);

    run(server, 90);               // ana times out (bob too; both keep their slots)
    c.move_to(endpoint(3, 6000));  // a new address, as after a NAT rebinding
    const net::Packet* back = c.connect("ana");
    REQUIRE(back != nullptr);
    REQUIRE(back->body_type() == net::Body::Accepted);
    CHECK(back->body_as_Accepted()->client_id() == id);
    CHECK(back->body_as_Accepted()->slot() == slot);
    CHECK(server.session(id)->connected);
    CHECK(server.room(0).clients() == 2);
}

TEST_CASE("a player back from a new address leaves alone a client now at its old one") {
    Link link;
    InlineDiskWork disk;
    Server server(rink_with_timeouts(1.0, 5.0), link, disk, fixed_cookies(), "t");
    ScriptedClient ana(server, link, endpoint(1, 5000), 1234);
    REQUIRE(ana.connect("ana")->body_type() == net::Body::Accepted);
    run(server, 90);  // ana times out; her slot is kept

    // Her old address goes to someone else (a NAT reusing the port), then she comes back.
    ScriptedClient bob(server, link, endpoint(1, 5000), 99);
    bob.clear();  // what was sent to ana there
    REQUIRE(bob.connect("bob")->body_type() == net::Body::Accepted);
    ana.move_to(endpoint(3, 6000));
    REQUIRE(ana.connect("ana")->body_type() == net::Body::Accepted);

    // Both are heard: bob's packets still find bob's session, ana's hers.
    run(server, 10);
    const std::uint64_t joined_tick = server.current_tick() - 10;
    REQUIRE(server.session(bob.client_id())->last_heard_tick == joined_tick);
    REQUIRE(server.session(ana.client_id())->last_heard_tick == joined_tick);
    bob.keep_alive();
    ana.keep_alive();
    CHECK(server.stats().dropped[static_cast<std::size_t>(Drop::unknown_sender)] == 0);
    CHECK(server.stats().dropped[static_cast<std::size_t>(Drop::wrong_client_id)] == 0);
    CHECK(server.session(bob.client_id())->last_heard_tick == server.current_tick());
    CHECK(server.session(ana.client_id())->last_heard_tick == server.current_tick());
}

TEST_CASE("spectators get no slot but receive the match, and a room caps its spectators") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.max_spectators_per_room = 1;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient watcher(server, link, endpoint(1, 5000));
    const net::Packet* p = watcher.connect("eye", 0, true);
    REQUIRE(p->body_type() == net::Body::Accepted);
    CHECK(p->body_as_Accepted()->slot() == -1);
    CHECK(server.room(0).clients() == 0);
    run(server, 4);
    CHECK(watcher.newest(net::Body::FullState) != nullptr);
    ScriptedClient second(server, link, endpoint(2, 5000));
    CHECK(second.connect("eye2", 0, true)->body_as_Denied()->reason() ==
          net::DenyReason::room_full);
}

TEST_CASE("an explicit disconnect frees the slot at once") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    const auto slot = static_cast<game::Slot>(c.connect("ana")->body_as_Accepted()->slot());
    c.disconnect();
    CHECK(server.session_count() == 0);
    CHECK_FALSE(server.room(0).match().active(slot));
}

TEST_CASE("garbage is counted by reason and never reaches the game") {
    // Two servers, the same player, the same inputs; garbage goes only to the first.
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    Link twin_link;
    Server twin(config_for("rink.json"), twin_link, disk, fixed_cookies(), "t");
    ScriptedClient twin_c(twin, twin_link, endpoint(1, 5000));
    REQUIRE(twin_c.connect("ana")->body_type() == net::Body::Accepted);
    const std::uint64_t hash_before = server.room(0).match().state_hash();
    REQUIRE(twin.room(0).match().state_hash() == hash_before);
    const std::vector<std::uint8_t> moves{game::Input::move(2).bits(),
                                          game::Input::move(3, true).bits()};
    c.report(2, moves);
    twin_c.report(2, moves);

    const std::vector<std::uint8_t> tiny{1, 2, 3};
    c.send_raw(tiny);
    std::vector<std::uint8_t> huge(protocol::kMaxDatagramBytes + 1, 0x41);
    c.send_raw(huge);
    std::vector<std::uint8_t> wrong_id(64, 0);
    c.send_raw(wrong_id);
    // A real packet with a corrupted offset: right identifier, bad table.
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateKeepAlive(b);
    const auto real = protocol::finish_packet(b, c.client_id(), net::Body::KeepAlive, body.Union());
    std::vector<std::uint8_t> broken(real.begin(), real.end());
    broken[0] = 0xF0;
    c.send_raw(broken);
    // Every byte flipped in turn: none may crash, each is dropped or read safely.
    std::vector<std::uint8_t> flipped(real.begin(), real.end());
    for (std::size_t i = 0; i < flipped.size(); ++i) {
        flipped[i] ^= 0xFF;
        c.send_raw(flipped);
        flipped[i] ^= 0xFF;
    }

    const Stats& s = server.stats();
    CHECK(s.invalid[static_cast<std::size_t>(protocol::PacketError::too_short)] >= 1);
    CHECK(s.invalid[static_cast<std::size_t>(protocol::PacketError::too_long)] == 1);
    CHECK(s.invalid[static_cast<std::size_t>(protocol::PacketError::bad_identifier)] >= 1);
    CHECK(s.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)] >= 1);
    CHECK(server.session_count() == 1);

    // The match plays on as if nothing had come: the same state as the twin's, tick by tick.
    for (int t = 0; t < 30; ++t) {
        server.tick();
        twin.tick();
        CAPTURE(t);
        REQUIRE(server.room(0).match().state_hash() == twin.room(0).match().state_hash());
    }
    CHECK(server.room(0).match().state_hash() != hash_before);  // the ticks did move the world
}

namespace {

// Datagrams of this type waiting for the client, without taking them.
std::size_t waiting(Link& link, const ScriptedClient& c, net::Body type) {
    std::size_t n = 0;
    for (const Datagram& sealed : link.inbox[c.at()]) {
        const Datagram d = c.peek(sealed);
        n += d.packet() != nullptr && d.packet()->body_type() == type ? 1U : 0U;
    }
    return n;
}

std::uint64_t dropped(const Server& server, Drop why) {
    return server.stats().dropped[static_cast<std::size_t>(why)];
}

}  // namespace

TEST_CASE("keep-alives keep a quiet player's session, which goes on receiving the match") {
    Link link;
    InlineDiskWork disk;
    Server server(rink_with_timeouts(1.0, 5.0), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    const std::uint32_t id = c.client_id();

    // Three timeouts long, a keep-alive every half second and no input.
    for (int half = 1; half <= 6; ++half) {
        CAPTURE(half);
        run(server, 28);
        c.keep_alive();
        CHECK(server.session(id)->last_heard_tick == server.current_tick());
        c.clear();
        run(server, 2);
        CHECK(waiting(link, c, net::Body::Disconnect) == 0);
        CHECK(c.pending() == 2);  // an update every tick
    }
    CHECK(server.session(id)->connected);

    // Without them the same session times out.
    run(server, 62);
    CHECK(waiting(link, c, net::Body::Disconnect) == 1);
    CHECK_FALSE(server.session(id)->connected);
}

TEST_CASE("a packet carrying another client's id is dropped and acts on neither session") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient ana(server, link, endpoint(1, 5000));
    ScriptedClient bob(server, link, endpoint(2, 5000));
    const auto ana_slot = static_cast<game::Slot>(ana.connect("ana")->body_as_Accepted()->slot());
    const auto bob_slot = static_cast<game::Slot>(bob.connect("bob")->body_as_Accepted()->slot());
    run(server, 5);

    // From ana's address with bob's id: a keep-alive and a disconnect.
    // (A ClientUpdate names no client: its seal is the session's, below.)
    const std::uint32_t ana_id = ana.client_id();
    ana.set_client_id(bob.client_id());
    ana.keep_alive();
    ana.disconnect();
    CHECK(dropped(server, Drop::wrong_client_id) == 2);
    // An input from ana's address sealed with bob's keys is nobody's.
    ana.use_keys_of(bob);
    ana.input(1, game::Input::move(4, true).bits());
    // Refused: not ana's keys (or, before the tag, a sequence ana's used).
    CHECK(dropped(server, Drop::bad_tag) + dropped(server, Drop::replayed_sequence) == 1);
    REQUIRE(server.session(ana_id) != nullptr);
    REQUIRE(server.session(bob.client_id()) != nullptr);
    CHECK(server.session(ana_id)->last_heard_tick == 0);
    CHECK(server.session(bob.client_id())->last_heard_tick == 0);
    server.tick();
    CHECK(server.room(0).match().last_input(ana_slot) == game::Input{});
    CHECK(server.room(0).match().last_input(bob_slot) == game::Input{});
}

TEST_CASE("server-to-client packet kinds sent to the server are dropped as unexpected") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    ScriptedClient stranger(server, link, endpoint(2, 5000));
    run(server, 5);
    c.clear();

    std::vector<std::vector<std::uint8_t>> packets;
    const auto keep = [&](std::span<const std::uint8_t> bytes) {
        packets.emplace_back(bytes.begin(), bytes.end());
    };
    {
        flatbuffers::FlatBufferBuilder b;
        const auto body = net::CreateChallenge(b, 1234);
        keep(protocol::finish_packet(b, c.client_id(), net::Body::Challenge, body.Union()));
    }
    {
        flatbuffers::FlatBufferBuilder b;
        net::AcceptedBuilder a(b);
        a.add_client_id(c.client_id());
        const auto body = a.Finish();
        keep(protocol::finish_packet(b, c.client_id(), net::Body::Accepted, body.Union()));
    }
    {
        flatbuffers::FlatBufferBuilder b;
        const auto body = net::CreateDenied(b, net::DenyReason::server_full, b.CreateString("x"));
        keep(protocol::finish_packet(b, c.client_id(), net::Body::Denied, body.Union()));
    }
    {
        flatbuffers::FlatBufferBuilder b;
        net::FullStateBuilder s(b);
        s.add_tick(3);
        const auto body = s.Finish();
        keep(protocol::finish_packet(b, c.client_id(), net::Body::FullState, body.Union()));
    }
    {
        flatbuffers::FlatBufferBuilder b;
        protocol::Update u;
        u.tick = 3;
        u.baseline = 2;
        keep(protocol::encode_update(b, u, {4, true}));
    }
    for (const auto& p : packets) {
        c.send_raw(p);
        stranger.send_raw(p);
    }
    CHECK(server.stats().invalid_total() == 2 * packets.size());
    CHECK(dropped(server, Drop::unexpected_type) == 2 * packets.size());
    CHECK(server.session(c.client_id())->last_heard_tick == 0);  // not heard by any of them
    CHECK(server.session_count() == 1);
    CHECK(c.pending() == 0);
    CHECK(stranger.pending() == 0);
}

TEST_CASE("a spectator's inputs are ignored") {
    // The same room with and without the spectator's inputs stays the same.
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    Link twin_link;
    Server twin(config_for("rink.json"), twin_link, disk, fixed_cookies(), "t");
    ScriptedClient player(server, link, endpoint(1, 5000));
    ScriptedClient eye(server, link, endpoint(2, 5000));
    ScriptedClient twin_player(twin, twin_link, endpoint(1, 5000));
    ScriptedClient twin_eye(twin, twin_link, endpoint(2, 5000));
    REQUIRE(player.connect("ana")->body_type() == net::Body::Accepted);
    REQUIRE(twin_player.connect("ana")->body_type() == net::Body::Accepted);
    REQUIRE(eye.connect("eye", 0, true)->body_as_Accepted()->slot() == -1);
    REQUIRE(twin_eye.connect("eye", 0, true)->body_as_Accepted()->slot() == -1);

    std::uint32_t seq = 0;
    for (int t = 0; t < 60; ++t) {
        // Each input twice (a duplicate), and a kick towards wherever.
        const std::uint8_t kick = game::Input::move(static_cast<std::uint8_t>(t % 16), true).bits();
        ++seq;
        eye.input(seq, kick);
        eye.input(seq, kick);
        server.tick();
        twin.tick();
        CAPTURE(t);
        REQUIRE(server.room(0).match().state_hash() == twin.room(0).match().state_hash());
    }
    CHECK(server.session(eye.client_id())->last_heard_tick == server.current_tick() - 1);
    CHECK(server.stats().inputs_duplicate == 0);  // not even queued
    CHECK(server.stats().inputs_stale == 0);
}

TEST_CASE("at shutdown every connected client is told, and the server takes no more ticks") {
    Link link;
    InlineDiskWork disk;
    Server server(rink_with_timeouts(1.0, 10.0), link, disk, fixed_cookies(), "t");
    ScriptedClient away(server, link, endpoint(4, 5000), 77);
    REQUIRE(away.connect("zed")->body_type() == net::Body::Accepted);
    ScriptedClient ana(server, link, endpoint(1, 5000));
    ScriptedClient bob(server, link, endpoint(2, 5000));
    ScriptedClient eye(server, link, endpoint(3, 5000));
    REQUIRE(ana.connect("ana")->body_type() == net::Body::Accepted);
    REQUIRE(bob.connect("bob")->body_type() == net::Body::Accepted);
    REQUIRE(eye.connect("eye", 0, true)->body_type() == net::Body::Accepted);
    // zed falls silent and times out (its slot kept); the others keep talking.
    for (int t = 0; t < 4; ++t) {
        run(server, 20);
        for (ScriptedClient* c : {&ana, &bob, &eye})
            c->keep_alive();
    }
    REQUIRE_FALSE(server.session(away.client_id())->connected);
    for (ScriptedClient* c : {&away, &ana, &bob, &eye})
        c->clear();

    server.shutdown();
    for (ScriptedClient* c : {&ana, &bob, &eye}) {
        CAPTURE(c->client_id());
        REQUIRE(c->pending() == 1);
        const net::Packet* bye = c->next();
        REQUIRE(bye->body_type() == net::Body::Disconnect);
        CHECK(bye->body_as_Disconnect()->reason() == net::DisconnectReason::server_shutdown);
    }
    CHECK(away.pending() == 0);  // its old address is no longer its own

    const std::uint64_t tick = server.current_tick();
    run(server, 5);
    CHECK(server.current_tick() == tick);
    CHECK(ana.pending() == 0);  // no updates either
}
