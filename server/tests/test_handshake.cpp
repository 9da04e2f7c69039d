#include <doctest/doctest.h>

#include <spdlog/fmt/fmt.h>

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

TEST_CASE("handshake: request, stateless challenge, response with the cookie, accepted") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000), 42);

    c.request("ana");
    const net::Packet* challenge = c.next();
    REQUIRE(challenge != nullptr);
    REQUIRE(challenge->body_type() == net::Body::Challenge);
    CHECK(server.session_count() == 0);  // nothing kept before the cookie returns

    c.respond("ana", challenge->body_as_Challenge()->cookie());
    const net::Packet* reply = c.next();
    REQUIRE(reply != nullptr);
    REQUIRE(reply->body_type() == net::Body::Accepted);
    const net::Accepted& a = *reply->body_as_Accepted();
    CHECK(a.client_id() != 0);
    CHECK(a.room() == 0);
    CHECK(a.slot() >= 0);
    CHECK(a.map_name()->str() == "rink");
    CHECK(a.map_hash() == server.room(0).map_hash());
    CHECK(a.tick_rate_hz() == 60);
    CHECK(a.update_rate_hz() == 60);
    CHECK(a.input_redundancy() == 8);
    CHECK(server.session_count() == 1);
    CHECK(server.room(0).match().active(static_cast<game::Slot>(a.slot())));
    CHECK(server.room(0).match().name(static_cast<game::Slot>(a.slot())) == "ana");
}

TEST_CASE("no reply is larger than the request that caused it") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    c.request("ana");
    REQUIRE(c.pending() == 1);
    CHECK(link.inbox[c.at()].front().bytes.size() <= protocol::kConnectRequestMinBytes);
}

TEST_CASE("an unpadded request gets no answer and is counted") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    c.request("ana", -1, false, /*padding=*/0);
    CHECK(c.pending() == 0);
    CHECK(server.stats().dropped[static_cast<std::size_t>(Drop::unpadded_request)] == 1);
}

TEST_CASE("a client of another protocol version is denied with the reason") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    c.request("ana", -1, false, protocol::kConnectRequestMinBytes, protocol::kProtocolVersion + 1);
    const net::Packet* p = c.next();
    REQUIRE(p != nullptr);
    REQUIRE(p->body_type() == net::Body::Denied);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::version_mismatch);
}

TEST_CASE("a ConnectResponse of another protocol version is denied as one, not as a cookie") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    c.request("ana");
    const std::uint64_t cookie = c.next()->body_as_Challenge()->cookie();
    for (const std::uint32_t version :
         {protocol::kProtocolVersion - 1, protocol::kProtocolVersion + 1}) {
        c.respond("ana", cookie, -1, false, protocol::kConnectRequestMinBytes, version);
        const net::Packet* p = c.next();
        REQUIRE(p != nullptr);
        REQUIRE(p->body_type() == net::Body::Denied);
        CHECK(p->body_as_Denied()->reason() == net::DenyReason::version_mismatch);
    }
    CHECK(server.session_count() == 0);
}

TEST_CASE("a forged cookie, or one from another address, is denied and allocates nothing") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient a(server, link, endpoint(1, 5000));
    ScriptedClient b(server, link, endpoint(2, 5000));
    a.request("ana");
    const std::uint64_t cookie = a.next()->body_as_Challenge()->cookie();
    b.respond("bob", cookie);  // a's cookie from b's address
    const net::Packet* p = b.next();
    REQUIRE(p != nullptr);
    REQUIRE(p->body_type() == net::Body::Denied);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::bad_cookie);
    a.respond("ana", cookie + 1);
    CHECK(a.next()->body_as_Denied()->reason() == net::DenyReason::bad_cookie);
    CHECK(server.session_count() == 0);
}

TEST_CASE("a cookie expires after its time bucket and the next") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    c.request("ana");
    const std::uint64_t cookie = c.next()->body_as_Challenge()->cookie();
    for (int t = 0; t < 60 * 11; ++t)
        server.tick();
    c.clear();
    c.respond("ana", cookie);
    const net::Packet* p = c.newest(net::Body::Denied);
    REQUIRE(p != nullptr);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::bad_cookie);
}

TEST_CASE("a room with every slot taken denies the next player: room full") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");  // 2 v 2: four slots
    for (std::uint8_t i = 1; i <= 4; ++i) {
        ScriptedClient c(server, link, endpoint(i, 5000));
        REQUIRE(c.connect(fmt::format("p{}", i))->body_type() == net::Body::Accepted);
    }
    ScriptedClient late(server, link, endpoint(9, 5000));
    const net::Packet* p = late.connect("late");
    REQUIRE(p->body_type() == net::Body::Denied);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::room_full);
    ScriptedClient asks_room_0(server, link, endpoint(10, 5000));
    CHECK(asks_room_0.connect("r0", 0)->body_as_Denied()->reason() == net::DenyReason::room_full);
}

TEST_CASE("players without a room choice fill the first room with space, then the next") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json", 2), link, disk, fixed_cookies(), "t");
    for (std::uint8_t i = 1; i <= 5; ++i) {
        ScriptedClient c(server, link, endpoint(i, 5000));
        const net::Packet* p = c.connect(fmt::format("p{}", i));
        REQUIRE(p->body_type() == net::Body::Accepted);
        CHECK(p->body_as_Accepted()->room() == (i <= 4 ? 0u : 1u));
    }
}

TEST_CASE("server full, no such room and banned names are denied with their reasons") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.max_clients = 1;
    config.banned_names = {"griefer"};
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient banned(server, link, endpoint(1, 5000));
    CHECK(banned.connect("griefer")->body_as_Denied()->reason() == net::DenyReason::banned_name);
    ScriptedClient wrong_room(server, link, endpoint(2, 5000));
    CHECK(wrong_room.connect("x", 3)->body_as_Denied()->reason() == net::DenyReason::no_such_room);
    ScriptedClient first(server, link, endpoint(3, 5000));
    CHECK(first.connect("first")->body_type() == net::Body::Accepted);
    ScriptedClient second(server, link, endpoint(4, 5000));
    CHECK(second.connect("second")->body_as_Denied()->reason() == net::DenyReason::server_full);
}

TEST_CASE("a repeated response (the Accepted was lost) gets the same answer, not a second slot") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    c.request("ana");
    const std::uint64_t cookie = c.next()->body_as_Challenge()->cookie();
    c.respond("ana", cookie);
    const std::uint32_t id = c.next()->body_as_Accepted()->client_id();
    c.respond("ana", cookie);
    CHECK(c.next()->body_as_Accepted()->client_id() == id);
    CHECK(server.session_count() == 1);
    CHECK(server.room(0).clients() == 1);
}

TEST_CASE(
    "with bots on, a joining player takes a bot's slot and the bot comes back when it leaves") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    const net::Packet* p = c.connect("ana");
    REQUIRE(p->body_type() == net::Body::Accepted);
    const auto slot = static_cast<game::Slot>(p->body_as_Accepted()->slot());
    const game::Match& match = server.room(0).match();
    for (game::Slot s = 0; s < match.slot_count(); ++s)
        CHECK(match.active(s));  // ana in hers, bots in the others
    CHECK(server.room(0).match().name(slot) == "ana");
    server.tick();
    c.disconnect();
    CHECK(server.session_count() == 0);
    CHECK(server.room(0).match().active(slot));
    CHECK(server.room(0).match().name(slot) != "ana");
}

TEST_CASE("a cookie from the previous time bucket is accepted, one from two buckets back is not") {
    // Buckets are 5 s: 300 ticks at 60 Hz. Both cookies are issued in bucket 0.
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient ana(server, link, endpoint(1, 5000));
    ScriptedClient bob(server, link, endpoint(2, 5000));
    ana.request("ana");
    bob.request("bob");
    const std::uint64_t ana_cookie = ana.next()->body_as_Challenge()->cookie();
    const std::uint64_t bob_cookie = bob.next()->body_as_Challenge()->cookie();
    for (int t = 0; t < 2 * 300 - 1; ++t)
        server.tick();
    ana.clear();
    ana.respond("ana", ana_cookie);  // tick 599: bucket 1
    const net::Packet* p = ana.next();
    REQUIRE(p != nullptr);
    CHECK(p->body_type() == net::Body::Accepted);

    server.tick();
    bob.clear();
    bob.respond("bob", bob_cookie);  // tick 600: bucket 2
    p = bob.next();
    REQUIRE(p != nullptr);
    REQUIRE(p->body_type() == net::Body::Denied);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::bad_cookie);
    CHECK(server.session_count() == 1);
}

TEST_CASE("a server shutting down denies requests and responses: shutting down") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient ana(server, link, endpoint(1, 5000));
    ana.request("ana");
    const std::uint64_t cookie = ana.next()->body_as_Challenge()->cookie();
    server.shutdown();

    ana.respond("ana", cookie);  // a good cookie, too late
    const net::Packet* p = ana.next();
    REQUIRE(p != nullptr);
    REQUIRE(p->body_type() == net::Body::Denied);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::shutting_down);

    ScriptedClient bob(server, link, endpoint(2, 5000));
    bob.request("bob");
    p = bob.next();
    REQUIRE(p != nullptr);
    REQUIRE(p->body_type() == net::Body::Denied);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::shutting_down);
    CHECK(server.session_count() == 0);
}
