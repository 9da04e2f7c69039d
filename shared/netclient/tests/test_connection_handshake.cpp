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
    CHECK(r->nonce() != 0);  // what its replies must echo
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
    // The reclaim token travels sealed, with the attempt's key and nonce.
    CHECK(r->nonce() == h.server.nonce());
    REQUIRE(r->client_key() != nullptr);
    CHECK(r->client_key()->size() == protocol::kKeyBytes);
    CHECK(h.server.hello_token() == 0xabcdef);

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
    h.receive(test::challenge(2), 30);
    REQUIRE(h.last_sent().body_as_ConnectResponse() != nullptr);
    CHECK(h.server.hello_token() == 0x5eed);
}

TEST_CASE("packets_meant_for_another_state_are_dropped_and_counted") {
    Harness h;
    h.connection.connect(0);
    h.receive(test::challenge(8), 1);
    test::FakeRoom room;
    h.receive(room.full_state(), 1);  // sealed, but not accepted yet
    room.step_idle();
    h.receive(room.update(room.tick() - 1), 1);
    CHECK(h.connection.stats().unexpected == 2);
    CHECK(h.connection.stats().states_taken == 0);
    h.receive(test::accepted({}), 2);
    h.receive(test::challenge(9), 3);  // connected: a challenge means nothing
    CHECK(h.connection.stats().unexpected == 3);
    CHECK(h.connection.state() == State::connected);
}

TEST_CASE("every_datagram_of_the_session_is_sealed_and_only_sealed_ones_are_taken") {
    Harness h;
    h.connect();
    h.connection.send_input(game::Input::move(1), 10);
    CHECK(protocol::is_sealed(h.sent.back()));
    CHECK(h.last_report().inputs.size() == 1);
    h.connection.update(10 + 1000);  // nothing else sent for a second: a keep-alive
    CHECK(protocol::is_sealed(h.sent.back()));
    REQUIRE(h.last_sent().body_as_KeepAlive() != nullptr);
    // A Disconnect forged from the server's address, in the clear or sealed
    // with other keys, is dropped and counted; the real one ends the session.
    const test::Bytes forged = test::server_disconnect(net::DisconnectReason::kicked, "forged");
    h.receive_raw(forged, 1100);
    CHECK(h.connection.stats().unsealed == 1);
    h.receive_raw(test::forged_seal(forged), 1100);
    CHECK(h.connection.stats()
              .refused_sealed[static_cast<std::size_t>(protocol::SealRefusal::bad_tag)] == 1);
    CHECK(h.connection.state() == State::connected);
    // The real one, once: seen again (replayed by whoever saw it), it is refused.
    const test::Bytes real =
        h.server.seal(test::server_disconnect(net::DisconnectReason::kicked, "real"));
    Harness other;  // a session of other keys cannot open it either
    other.connect();
    other.receive_raw(real, 1200);
    CHECK(other.connection.state() == State::connected);
    CHECK(other.connection.stats().forged_total() == 1);
    h.receive_raw(real, 1200);
    CHECK(h.connection.state() == State::closed);
}

TEST_CASE("replies_the_client_did_not_ask_for_are_dropped_and_counted") {
    // An attacker off the path knows the client's address and forges the
    // server's, but never sees the request: its nonce and key are unknown.
    Harness h(config_of("dora", -1, 0xd0a));
    h.connection.connect(0);
    const std::uint64_t nonce = h.server.nonce();
    const protocol::KeyPair attacker = protocol::make_key_pair();
    h.receive_raw(test::challenge(1, nonce + 1, attacker.public_key), 1);
    h.receive_raw(test::challenge(1, 0, attacker.public_key), 1);
    h.receive_raw(test::denied(net::DenyReason::banned_name, "forged", nonce ^ 4), 1);
    h.receive_raw(test::accepted({}), 1);  // in the clear
    CHECK(h.connection.stats().unasked == 3);
    CHECK(h.connection.stats().unsealed == 1);
    CHECK(h.sent.size() == 1);  // no response to a forged Challenge
    // The real Challenge, then forged Accepted sealed with keys of its own: refused.
    h.receive(test::challenge(2), 2);
    REQUIRE(h.last_sent().body_as_ConnectResponse() != nullptr);
    test::AcceptedFields evil;
    evil.client_id = 666;
    evil.map_name = "evil";
    h.receive_raw(test::forged_seal(test::accepted(evil)), 3);
    h.receive_raw(test::challenge(3, nonce + 1, attacker.public_key), 3);
    CHECK(h.connection.state() == State::connecting);
    CHECK(h.connection.stats().forged_total() == 6);
    // The server's own reply is taken.
    test::AcceptedFields real;
    real.client_id = 7;
    h.receive(test::accepted(real), 4);
    CHECK(h.connection.state() == State::connected);
    CHECK(h.connection.admission().client_id == 7);
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
