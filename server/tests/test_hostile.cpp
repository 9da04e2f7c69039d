// Issue 15: what an attacker on the network can and cannot do to the server,
// through the real Server over the in-process link.
#include <doctest/doctest.h>

#include <set>

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

std::uint64_t dropped(const Server& server, Drop why) {
    return server.stats().dropped[static_cast<std::size_t>(why)];
}
std::uint64_t invalid(const Server& server, protocol::PacketError why) {
    return server.stats().invalid[static_cast<std::size_t>(why)];
}

// A KeepAlive of any protocol version, as bytes.
std::vector<std::uint8_t> keep_alive_of_version(std::uint32_t version, std::uint32_t client_id) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateKeepAlive(b);
    net::PacketBuilder p(b);
    p.add_protocol(version);
    p.add_client_id(client_id);
    p.add_body_type(net::Body::KeepAlive);
    p.add_body(body.Union());
    net::FinishPacketBuffer(b, p.Finish());
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

}  // namespace

TEST_CASE("a short datagram of another protocol version is refused before the verifier") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    // Well formed, but protocol 3: refused as wrong version, not read as an
    // unknown sender (which needs the verifier and a lookup).
    const auto old = keep_alive_of_version(protocol::kProtocolVersion - 1, 0);
    c.send_raw(old);
    CHECK(invalid(server, protocol::PacketError::wrong_version) == 1);
    CHECK(dropped(server, Drop::unknown_sender) == 0);
    // The same with the table behind the header broken: the verifier would
    // say malformed; the cheap check never runs it.
    auto broken = old;
    broken[broken.size() - 1] ^= 0xFF;
    broken[broken.size() - 2] ^= 0xFF;
    c.send_raw(broken);
    CHECK(invalid(server, protocol::PacketError::wrong_version) == 2);
    CHECK(invalid(server, protocol::PacketError::malformed) == 0);
    // This build's version goes on to the verifier: a session's packet in the clear.
    c.send_raw(keep_alive_of_version(protocol::kProtocolVersion, 0));
    CHECK(dropped(server, Drop::unsealed) == 1);
}

TEST_CASE("client ids and session keys are random: not counting from 1, not alike") {
    std::set<std::uint32_t> ids;
    std::set<protocol::Key> keys;
    for (int run = 0; run < 2; ++run) {
        Link link;
        InlineDiskWork disk;
        Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
        for (std::uint8_t i = 0; i < 4; ++i) {
            ScriptedClient c(server, link, endpoint(static_cast<std::uint8_t>(i + 1), 5000));
            const net::Packet* p = c.connect("p");
            REQUIRE(p != nullptr);
            REQUIRE(p->body_type() == net::Body::Accepted);
            CHECK(c.client_id() != 0);
            ids.insert(c.client_id());
            keys.insert(c.seal()->keys().send);
            keys.insert(c.seal()->keys().receive);
        }
    }
    // Counting ids would give 1..4 twice (4 distinct); random ones 8 (a
    // collision of 32-bit ids has odds of about 1 in 10^8).
    CHECK(ids.size() == 8);
    CHECK(keys.size() == 16);
    CHECK(!ids.contains(1));
}

TEST_CASE("packets forged from a player's address without its keys neither kick nor freeze it") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient victim(server, link, endpoint(1, 5000));
    const net::Packet* a = victim.connect("vic");
    REQUIRE(a != nullptr);
    REQUIRE(a->body_type() == net::Body::Accepted);
    const auto slot = static_cast<game::Slot>(a->body_as_Accepted()->slot());
    const std::uint32_t id = victim.client_id();
    victim.input(1, game::Input::move(2).bits());
    server.tick();
    REQUIRE(server.room(0).match().last_input(slot) == game::Input::move(2));

    // The off-path attacker: the victim's address and id (it may guess or
    // see the id in nothing it receives), no keys: in the clear, or sealed
    // with keys of its own at sequences old, new and far ahead.
    std::vector<std::vector<std::uint8_t>> forged;
    {
        flatbuffers::FlatBufferBuilder b;
        protocol::ClientReport r;
        // A sequence 2^15 ahead (as far as a ClientUpdate reaches), which
        // would make the victim's next inputs stale if it were taken.
        r.sequence = (1U << 15) - 1;
        r.inputs = {game::Input::move(6, true)};
        const auto report = protocol::encode_client_report(b, r);
        forged.emplace_back(report.begin(), report.end());
        flatbuffers::FlatBufferBuilder k;
        const auto keep =
            protocol::finish_packet(k, id, net::Body::KeepAlive, net::CreateKeepAlive(k).Union());
        forged.emplace_back(keep.begin(), keep.end());
        flatbuffers::FlatBufferBuilder d;
        const auto quit =
            protocol::finish_packet(d, id, net::Body::Disconnect,
                                    net::CreateDisconnect(d, net::DisconnectReason::quit).Union());
        forged.emplace_back(quit.begin(), quit.end());
    }
    for (const auto& clear : forged)
        server.receive(victim.at(), clear);
    CHECK(dropped(server, Drop::unsealed) == 3);
    for (const std::uint64_t sequence :
         {std::uint64_t{2}, std::uint64_t{100}, std::uint64_t{1} << 20}) {
        protocol::SessionKeys guess;
        guess.send = protocol::make_key_pair().public_key;
        protocol::SessionSeal seal(guess, sequence);
        for (const auto& clear : forged) {
            protocol::DatagramBuffer out{};
            server.receive(victim.at(), seal.seal(clear, out));
        }
    }
    CHECK(dropped(server, Drop::bad_tag) == 6);
    CHECK(dropped(server, Drop::far_ahead_sequence) == 3);
    REQUIRE(server.session(id) != nullptr);  // not kicked
    CHECK(server.session(id)->connected);

    // Not frozen: the victim's next inputs are applied, tick by tick.
    for (std::uint32_t seq = 2; seq < 6; ++seq) {
        const auto move = game::Input::move(static_cast<std::uint8_t>(seq % 8));
        victim.input(seq, move.bits());
        server.tick();
        CAPTURE(seq);
        CHECK(server.room(0).match().last_input(slot) == move);
    }
    CHECK(server.stats().inputs_stale == 0);
}

TEST_CASE("a reclaimed session gets new keys, and the old holder's no longer act") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient first(server, link, endpoint(1, 5000), 99);
    REQUIRE(first.connect("ana")->body_type() == net::Body::Accepted);
    ScriptedClient again(server, link, endpoint(1, 6000), 99);  // the same token, a new port
    REQUIRE(again.connect("ana")->body_type() == net::Body::Accepted);
    CHECK(again.client_id() == first.client_id());
    CHECK(again.seal()->keys().send != first.seal()->keys().send);
    // The old address with the old keys: unknown sender now; the old keys
    // from the new address: a bad tag.
    first.disconnect();
    CHECK(dropped(server, Drop::unknown_sender) == 1);
    ScriptedClient stale(server, link, again.at());
    stale.set_client_id(first.client_id());
    stale.use_keys_of(first);
    stale.disconnect();
    CHECK(dropped(server, Drop::bad_tag) == 1);
    CHECK(server.session_count() == 1);
}

TEST_CASE("every packet kind before acceptance gets a reply no larger than itself") {
    ServerConfig config = config_for("rink.json");
    config.max_clients = 5;
    config.max_sessions_per_ip = 2;
    config.banned_names = {"evil"};
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    std::size_t cases = 0, replies = 0;
    // Sends with `send`, then holds every reply the server made to `c` against the request.
    const auto check = [&](const char* what, ScriptedClient& c, const auto& send) {
        CAPTURE(what);
        c.clear();
        const std::uint64_t bytes_before = server.stats().bytes_in;
        send();
        const std::uint64_t request = server.stats().bytes_in - bytes_before;
        REQUIRE(request > 0);
        for (const Datagram& d : link.inbox[c.at()]) {
            CHECK(d.bytes.size() <= request);
            ++replies;
        }
        ++cases;
    };
    const auto cookie_for = [&](ScriptedClient& c) {
        c.clear();
        c.request("x");
        const net::Packet* p = c.next();
        REQUIRE(p != nullptr);
        REQUIRE(p->body_type() == net::Body::Challenge);
        return p->body_as_Challenge()->cookie();
    };

    ScriptedClient a(server, link, endpoint(1, 5000));
    check("request", a, [&] { a.request("ana"); });
    check("request, unpadded", a, [&] { a.request("ana", -1, false, 0); });
    check("request, another version", a, [&] {
        a.request("ana", -1, false, protocol::kConnectRequestMinBytes,
                  protocol::kProtocolVersion + 1);
    });
    check("request, another version, unpadded", a,
          [&] { a.request("ana", -1, false, 0, protocol::kProtocolVersion + 1); });
    check("response, bad cookie", a, [&] { a.respond("ana", 12345); });
    check("response, bad cookie, unpadded", a, [&] { a.respond("ana", 12345, -1, false, 0); });
    std::uint64_t cookie = cookie_for(a);
    check("response, unpadded", a, [&] { a.respond("ana", cookie, -1, false, 0); });
    check("response, banned name", a, [&] { a.respond("evil", cookie); });
    check("response, no such room", a, [&] { a.respond("ana", cookie, 7); });
    check("response, accepted", a, [&] { a.respond("ana", cookie); });
    check("response, repeated (accepted again)", a, [&] { a.respond("ana", cookie); });
    ScriptedClient b(server, link, endpoint(1, 5001));
    cookie = cookie_for(b);
    check("response, accepted (second)", b, [&] { b.respond("bob", cookie); });
    ScriptedClient c3(server, link, endpoint(1, 5002));
    cookie = cookie_for(c3);
    check("response, too many from the address", c3, [&] { c3.respond("cy", cookie); });
    // A full room (rink: 2 v 2), then a full server.
    for (std::uint8_t h = 2; h <= 3; ++h) {
        ScriptedClient p(server, link, endpoint(h, 5000));
        REQUIRE(p.connect("p")->body_type() == net::Body::Accepted);
    }
    ScriptedClient d(server, link, endpoint(4, 5000));
    cookie = cookie_for(d);
    check("response, room full", d, [&] { d.respond("dee", cookie); });
    ScriptedClient e(server, link, endpoint(5, 5000));
    REQUIRE(e.connect("spec", -1, true)->body_type() == net::Body::Accepted);
    ScriptedClient f(server, link, endpoint(6, 5000));
    cookie = cookie_for(f);
    check("response, server full", f, [&] { f.respond("fay", cookie); });
    // Session packets and server-to-client kinds from an address without a session.
    ScriptedClient g(server, link, endpoint(7, 5000));
    g.set_client_id(a.client_id());
    g.use_keys_of(a);
    check("input, unknown sender", g, [&] { g.input(1, 0); });
    check("keep-alive, unknown sender", g, [&] { g.keep_alive(); });
    check("disconnect, unknown sender", g, [&] { g.disconnect(); });
    for (const net::Body kind :
         {net::Body::Challenge, net::Body::Accepted, net::Body::Denied, net::Body::FullState}) {
        check(net::EnumNameBody(kind), g, [&] {
            flatbuffers::FlatBufferBuilder fb;
            flatbuffers::Offset<void> body;
            switch (kind) {
                case net::Body::Challenge:
                    body = net::CreateChallenge(fb, 1).Union();
                    break;
                case net::Body::Accepted:
                    body = net::CreateAccepted(fb, 1).Union();
                    break;
                case net::Body::Denied:
                    body = net::CreateDenied(fb).Union();
                    break;
                default:
                    body = net::CreateFullState(fb, 1).Union();
            }
            g.send_raw(protocol::finish_packet(fb, 0, kind, body));
        });
    }
    server.shutdown();
    ScriptedClient h(server, link, endpoint(8, 5000));
    check("request, shutting down", h, [&] { h.request("hal"); });
    check("response, shutting down", h, [&] { h.respond("hal", 1); });
    CHECK(cases == 24);
    // Answered: 2 requests, 9 responses, 2 at shutdown; the other 11 get nothing.
    CHECK(replies == 13);
}

TEST_CASE("handshake replies are rate-limited per source address") {
    ServerConfig config = config_for("rink.json");
    config.handshake_replies_per_ip_s = 10;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    // 50 requests from 50 ports of one IP: 10 answered, 40 dropped.
    for (std::uint16_t port = 1000; port < 1050; ++port) {
        ScriptedClient c(server, link, endpoint(1, port));
        c.request("x");
    }
    std::size_t answered = 0;
    for (const auto& [to, q] : link.inbox)
        answered += q.size();
    CHECK(answered == 10);
    CHECK(dropped(server, Drop::rate_limited) == 40);
    // Another IP is not held back by the first one's flood.
    ScriptedClient other(server, link, endpoint(2, 1000));
    other.request("y");
    CHECK(other.pending() == 1);
    // A second later the first IP gets answers again.
    for (std::uint32_t t = 0; t < game::kTickRate; ++t)
        server.tick();
    ScriptedClient later(server, link, endpoint(1, 2000));
    later.request("x");
    CHECK(later.pending() == 1);
}

TEST_CASE("at most max-sessions-per-ip sessions from one IP, with their own deny reason") {
    ServerConfig config = config_for("arena.json");  // 4 v 4: room enough
    config.max_sessions_per_ip = 3;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    std::vector<std::unique_ptr<ScriptedClient>> same_ip;
    for (std::uint16_t i = 0; i < 3; ++i) {
        same_ip.push_back(std::make_unique<ScriptedClient>(server, link, endpoint(1, 5000 + i)));
        REQUIRE(same_ip.back()->connect("p")->body_type() == net::Body::Accepted);
    }
    ScriptedClient fourth(server, link, endpoint(1, 5003));
    const net::Packet* p = fourth.connect("q");
    REQUIRE(p != nullptr);
    REQUIRE(p->body_type() == net::Body::Denied);
    CHECK(p->body_as_Denied()->reason() == net::DenyReason::too_many_from_address);
    CHECK(server.session_count() == 3);
    // Other IPs are not counted against it.
    ScriptedClient elsewhere(server, link, endpoint(2, 5003));
    CHECK(elsewhere.connect("r")->body_type() == net::Body::Accepted);
    // One leaves: the fourth gets in.
    same_ip.front()->disconnect();
    REQUIRE(server.session_count() == 3);
    CHECK(fourth.connect("q")->body_type() == net::Body::Accepted);
}
