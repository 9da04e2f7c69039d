// The handshake, denial, timeouts and disconnects, against hand-built server packets.
#include <doctest/doctest.h>

#include "carom/client/testing/fake_server.hpp"

namespace carom::client {
namespace {

using test::Harness;

ConnectionConfig config_of(std::string name, std::int32_t room, std::uint64_t token) {
    ConnectionConfig c;
    c.name = std::move(name);
    c.room = room;
    c.token = token;
    return c;
}

TEST_CASE("connect_sends_a_padded_connect_request_with_our_fields") {
    Harness h(config_of("alice", 2, 0xfeed));
    h.connection.connect(1000);
    REQUIRE(h.sent.size() == 1);
    CHECK(h.sent[0].size() >= protocol::kConnectRequestMinBytes);
    CHECK(h.sent[0].size() <= protocol::kConnectRequestMinBytes + 16);
    const net::ConnectRequest* r = h.last_sent().body_as_ConnectRequest();
    REQUIRE(r != nullptr);
    CHECK(h.last_sent().protocol() == protocol::kProtocolVersion);
    CHECK(r->name()->str() == "alice");
    CHECK(r->room() == 2);
    CHECK(r->token() == 0xfeed);
    CHECK_FALSE(r->spectator());
    CHECK(h.connection.state() == State::connecting);
}

TEST_CASE("connect_request_is_padded_even_for_the_longest_name") {
    Harness h(config_of("a-name-much-longer-than-fifteen-bytes", -1, 1));
    h.connection.connect(0);
    CHECK(h.sent.at(0).size() >= protocol::kConnectRequestMinBytes);
    CHECK(h.last_sent().body_as_ConnectRequest()->name()->str().size() == protocol::kMaxNameBytes);
}

TEST_CASE("connecting_retries_every_250_ms") {
    Harness h;
    h.connection.connect(0);
    h.connection.update(249);
    CHECK(h.sent.size() == 1);
    h.connection.update(250);
    CHECK(h.sent.size() == 2);
    CHECK(h.last_sent().body_as_ConnectRequest() != nullptr);
    h.connection.update(400);
    CHECK(h.sent.size() == 2);
    h.connection.update(500);
    CHECK(h.sent.size() == 3);
}

TEST_CASE("challenge_is_answered_by_a_connect_response_echoing_the_cookie") {
    ConnectionConfig c = config_of("bob", 5, 0xabcdef);
    c.spectator = true;
    Harness h(c);
    h.connection.connect(0);
    h.receive(test::challenge(0x0123'4567'89ab'cdef), 10);
    REQUIRE(h.sent.size() == 2);
    const net::ConnectResponse* r = h.last_sent().body_as_ConnectResponse();
    REQUIRE(r != nullptr);
    CHECK(r->cookie() == 0x0123'4567'89ab'cdef);
    CHECK(r->name()->str() == "bob");
    CHECK(r->room() == 5);
    CHECK(r->spectator());
    CHECK(r->token() == 0xabcdef);

    // Retries now resend the response, not the request.
    h.connection.update(10 + 250);
    REQUIRE(h.sent.size() == 3);
    REQUIRE(h.last_sent().body_as_ConnectResponse() != nullptr);
    CHECK(h.last_sent().body_as_ConnectResponse()->cookie() == 0x0123'4567'89ab'cdef);
}

TEST_CASE("accepted_fields_are_stored") {
    Harness h;
    test::AcceptedFields f;
    f.client_id = 77;
    f.room = 4;
    f.slot = 3;
    f.team = 1;
    f.tick_rate_hz = 120;
    f.update_rate_hz = 30;
    f.map_name = "arena";
    f.map_hash = 0xdeadbeefcafe;
    f.seed = 31337;
    f.input_redundancy = 5;
    h.connect(f);
    const Admission& s = h.connection.admission();
    CHECK(s.client_id == 77);
    CHECK(s.room == 4);
    CHECK(s.slot == 3);
    CHECK(s.team == 1);
    CHECK(s.tick_rate_hz == 120);
    CHECK(s.update_rate_hz == 30);
    CHECK(s.map_name == "arena");
    CHECK(s.map_hash == 0xdeadbeefcafe);
    CHECK(s.seed == 31337);
    CHECK(s.input_redundancy == 5);
    // Connected: no more handshake retries.
    const std::size_t sent = h.sent.size();
    h.connection.update(300);
    CHECK(h.sent.size() == sent);
}

TEST_CASE("denied_is_stored_and_stops_the_handshake") {
    Harness h;
    h.connection.connect(0);
    h.receive(test::denied(net::DenyReason::room_full, "room 3 is full"), 20);
    CHECK(h.connection.state() == State::closed);
    CHECK(h.connection.close_reason() == CloseReason::denied);
    CHECK(h.connection.deny_reason() == net::DenyReason::room_full);
    CHECK(h.connection.close_detail() == "room 3 is full");
    h.connection.update(5000);
    CHECK(h.sent.size() == 1);
}

TEST_CASE("a_denial_from_another_protocol_version_is_still_read") {
    Harness h;
    h.connection.connect(0);
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateDeniedDirect(b, net::DenyReason::version_mismatch, "v9");
    net::PacketBuilder packet(b);
    packet.add_protocol(protocol::kProtocolVersion + 8);
    packet.add_body_type(net::Body::Denied);
    packet.add_body(body.Union());
    net::FinishPacketBuffer(b, packet.Finish());
    h.receive(test::copy_of({b.GetBufferPointer(), b.GetSize()}), 5);
    CHECK(h.connection.close_reason() == CloseReason::denied);
    CHECK(h.connection.deny_reason() == net::DenyReason::version_mismatch);
}

TEST_CASE("connect_times_out_after_5_s_by_default") {
    Harness h;
    h.connection.connect(1000);
    for (std::uint64_t t = 1000; t < 6000; t += 10)
        h.connection.update(t);
    CHECK(h.connection.state() == State::connecting);
    h.connection.update(6000);
    CHECK(h.connection.state() == State::closed);
    CHECK(h.connection.close_reason() == CloseReason::connect_timeout);
    const std::size_t sent = h.sent.size();
    CHECK(sent == 1 + 19);  // the request, then a retry every 250 ms until 5999
    h.connection.update(7000);
    CHECK(h.sent.size() == sent);
}

TEST_CASE("connect_timeout_is_configurable_and_a_challenge_does_not_extend_it") {
    ConnectionConfig c;
    c.connect_timeout_ms = 600;
    Harness h(c);
    h.connection.connect(0);
    h.receive(test::challenge(1), 500);
    h.connection.update(600);
    CHECK(h.connection.close_reason() == CloseReason::connect_timeout);
}

TEST_CASE("connected_link_times_out_when_nothing_is_heard") {
    Harness h;
    h.connect({}, 0);
    h.connection.update(4999);
    CHECK(h.connection.state() == State::connected);
    h.connection.update(5000);
    CHECK(h.connection.close_reason() == CloseReason::timeout);
}

TEST_CASE("keepalive_goes_out_when_nothing_was_sent_for_a_second") {
    Harness h;
    h.connect({}, 0);
    const std::size_t sent = h.sent.size();
    h.connection.update(999);
    CHECK(h.sent.size() == sent);
    h.connection.update(1000);
    REQUIRE(h.sent.size() == sent + 1);
    CHECK(h.last_sent().body_as_KeepAlive() != nullptr);
    CHECK(h.last_sent().client_id() == 42);
}

TEST_CASE("server_disconnect_closes_with_its_reason") {
    Harness h;
    h.connect();
    h.receive(test::server_disconnect(net::DisconnectReason::kicked, "bye"), 10);
    CHECK(h.connection.close_reason() == CloseReason::server_disconnect);
    CHECK(h.connection.server_disconnect_reason() == net::DisconnectReason::kicked);
    CHECK(h.connection.close_detail() == "bye");
}

TEST_CASE("disconnect_sends_disconnect_quit") {
    Harness h;
    h.connect();
    h.connection.disconnect(10);
    const net::Disconnect* d = h.last_sent().body_as_Disconnect();
    REQUIRE(d != nullptr);
    CHECK(d->reason() == net::DisconnectReason::quit);
    CHECK(h.last_sent().client_id() == 42);
    CHECK(h.connection.close_reason() == CloseReason::quit);
    // Closed: nothing more goes out, and a late packet is only counted.
    const std::size_t sent = h.sent.size();
    h.connection.send_input(game::Input::idle(), 20);
    h.connection.update(2000);
    h.receive(test::challenge(3), 30);
    CHECK(h.sent.size() == sent);
    CHECK(h.connection.stats().unexpected == 1);
}

TEST_CASE("reconnect_keeps_the_token") {
    Harness h(config_of("carl", -1, 0x5eed));
    h.connect();
    h.connection.disconnect(10);
    h.connection.connect(20);
    CHECK(h.connection.state() == State::connecting);
    CHECK(h.last_sent().body_as_ConnectRequest()->token() == 0x5eed);
}

TEST_CASE("packets_meant_for_another_state_are_dropped_and_counted") {
    Harness h;
    h.connection.connect(0);
    test::FakeRoom room;
    h.receive(room.full_state(), 1);  // not accepted yet
    room.step_idle();
    h.receive(room.update(room.tick() - 1), 1);
    CHECK(h.connection.stats().unexpected == 2);
    CHECK(h.connection.stats().states_taken == 0);
    h.receive(test::accepted({}), 2);
    h.receive(test::challenge(9), 3);  // connected: a challenge means nothing
    CHECK(h.connection.stats().unexpected == 3);
    CHECK(h.connection.state() == State::connected);
}

TEST_CASE("the session secret from accepted goes on every session packet, and is required back") {
    Harness h;
    test::AcceptedFields f;
    f.secret = 0x5ec2'e7a1'0000'0001;
    h.connect(f);
    CHECK(h.connection.admission().secret == f.secret);
    h.connection.send_input(game::Input::move(1), 10);
    const protocol::ClientReport r = h.last_report();
    CHECK(r.proof == protocol::client_proof(f.secret, r.sequence, 0));
    CHECK(r.proof != protocol::client_proof(f.secret ^ 1, r.sequence, 0));
    h.connection.update(10 + 1000);  // nothing else sent for a second: a keep-alive
    REQUIRE(h.last_sent().body_as_KeepAlive() != nullptr);
    CHECK(h.last_sent().session_secret() == f.secret);
    // A Disconnect forged from the server's address without the secret is
    // dropped and counted; the real one (with it) ends the session.
    h.receive(test::server_disconnect(net::DisconnectReason::kicked, "forged"), 1100);
    CHECK(h.connection.state() == State::connected);
    CHECK(h.connection.stats().wrong_secret == 1);
    h.receive(test::server_disconnect(net::DisconnectReason::kicked, "", f.secret ^ 2), 1100);
    CHECK(h.connection.stats().wrong_secret == 2);
    CHECK(h.connection.state() == State::connected);
    h.receive(test::server_disconnect(net::DisconnectReason::kicked, "real", f.secret), 1200);
    CHECK(h.connection.state() == State::closed);
}

TEST_CASE("the connect response is padded like the request") {
    Harness h(config_of("bob", -1, 1));
    h.connection.connect(0);
    h.receive(test::challenge(5), 10);
    REQUIRE(h.last_sent().body_as_ConnectResponse() != nullptr);
    CHECK(h.sent.back().size() >= protocol::kConnectRequestMinBytes);
    CHECK(h.sent.back().size() <= protocol::kConnectRequestMinBytes + 16);
}

}  // namespace
}  // namespace carom::client
