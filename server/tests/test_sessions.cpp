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
    Server server(rink_with_timeouts(1.0, 2.0), link, fixed_cookies(), "t");
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
    CHECK_FALSE(server.room(0).match().active(slot));
}

TEST_CASE("a player who comes back within the grace window with its token gets the same slot") {
    Link link;
    Server server(rink_with_timeouts(1.0, 5.0), link, fixed_cookies(), "t");
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
    Server server(rink_with_timeouts(1.0, 5.0), link, fixed_cookies(), "t");
    ScriptedClient ana(server, link, endpoint(1, 5000), 1234);
    REQUIRE(ana.connect("ana")->body_type() == net::Body::Accepted);
    run(server, 90);  // ana times out; her slot is kept

    // Her old address goes to someone else (a NAT reusing the port), then she comes back.
    ScriptedClient bob(server, link, endpoint(1, 5000), 99);
    bob.clear();  // what was sent to ana there
    REQUIRE(bob.connect("bob")->body_type() == net::Body::Accepted);
    ana.move_to(endpoint(3, 6000));
    REQUIRE(ana.connect("ana")->body_type() == net::Body::Accepted);

    // Both are heard: bob's packets still find bob's session.
    bob.keep_alive();
    ana.keep_alive();
    CHECK(server.stats().dropped[static_cast<std::size_t>(Drop::unknown_sender)] == 0);
    CHECK(server.stats().dropped[static_cast<std::size_t>(Drop::wrong_client_id)] == 0);
    CHECK(server.session(bob.client_id())->last_heard_tick == server.current_tick());
}

TEST_CASE("spectators get no slot but receive snapshots; a room caps its spectators") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.max_spectators_per_room = 1;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient watcher(server, link, endpoint(1, 5000));
    const net::Packet* p = watcher.connect("eye", 0, true);
    REQUIRE(p->body_type() == net::Body::Accepted);
    CHECK(p->body_as_Accepted()->slot() == -1);
    CHECK(server.room(0).clients() == 0);
    run(server, 4);
    CHECK(watcher.newest(net::Body::Snapshot) != nullptr);
    ScriptedClient second(server, link, endpoint(2, 5000));
    CHECK(second.connect("eye2", 0, true)->body_as_Denied()->reason() ==
          net::DenyReason::room_full);
}

TEST_CASE("an explicit disconnect frees the slot at once") {
    Link link;
    Server server(config_for("rink.json"), link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    const auto slot = static_cast<game::Slot>(c.connect("ana")->body_as_Accepted()->slot());
    c.disconnect();
    CHECK(server.session_count() == 0);
    CHECK_FALSE(server.room(0).match().active(slot));
}

TEST_CASE("garbage is counted by reason and never reaches the game") {
    Link link;
    Server server(config_for("rink.json"), link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    const std::uint64_t hash_before = server.room(0).match().state_hash();

    const std::vector<std::uint8_t> tiny{1, 2, 3};
    c.send_raw(tiny);
    std::vector<std::uint8_t> huge(protocol::kMaxDatagramBytes + 1, 0x41);
    c.send_raw(huge);
    std::vector<std::uint8_t> wrong_id(64, 0);
    c.send_raw(wrong_id);
    // A real packet with a corrupted offset: right identifier, bad table.
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateKeepAlive(b, 1);
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
    CHECK(server.room(0).match().state_hash() == hash_before);
}
