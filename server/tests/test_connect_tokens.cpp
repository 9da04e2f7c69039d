// Connect tokens on a server started with --token-key: carom's client
// (Connection) against the real Server over the in-process link. Every
// refusal is a Denied with its reason, counted; a token opens one session.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>

#include "carom/client/connection.hpp"
#include "carom/protocol/connect_token.hpp"
#include "link.hpp"

namespace carom::server::test {
namespace {

constexpr std::uint64_t kNow = 1'800'000'000;
const char* const kAddress = "127.0.0.1:27960";

std::uint64_t denied(const Server& server, net::DenyReason why) {
    return server.stats().denied[static_cast<std::size_t>(why)];
}

// A token server at kAddress whose clock reads `clock`.
struct TokenServer {
    explicit TokenServer(std::uint64_t& clock, ServerConfig config = config_for("rink.json")) {
        config.token_key = key;
        config.token_servers.push_back(kAddress);
        config.max_sessions_per_ip = 100;
        config.unix_time_s = [&clock] { return clock; };
        server.emplace(config, link, disk, fixed_cookies(), "t");
    }
    std::vector<std::uint8_t> token(std::uint64_t id, const char* name, std::uint64_t now,
                                    std::uint64_t lifetime_s = 60,
                                    std::vector<std::string> servers = {kAddress}) const {
        protocol::TokenGrant g;
        g.player_id = id;
        g.name = name;
        g.servers = std::move(servers);
        return protocol::make_connect_token(key, g, now, lifetime_s).value();
    }
    protocol::Key key = protocol::make_token_key();
    Link link;
    InlineDiskWork disk;
    std::optional<Server> server;
};

// A client at `at` with `token`, through the handshake (at most 2 s).
struct Joiner {
    Joiner(TokenServer& ts, Endpoint where, std::vector<std::uint8_t> token,
           std::uint64_t reclaim = 0)
        : t(ts), at(where), connection(config(std::move(token), reclaim), [this](auto d) {
              ++sent;
              largest_sent = std::max(largest_sent, d.size());
              t.server->receive(at, d);
          }) {}
    static client::ConnectionConfig config(std::vector<std::uint8_t> token, std::uint64_t reclaim) {
        client::ConnectionConfig cc;
        cc.name = "mallory";  // a token's name wins over the client's own
        cc.connect_token = std::move(token);
        cc.token = reclaim;
        return cc;
    }
    // Delivers what the server sent until the client is connected or closed;
    // `lose_first_accepted`: the first sealed reply (Accepted) is lost.
    client::State join(bool lose_first_accepted = false) {
        connection.connect(now);
        bool lost = false;
        while (connection.state() == client::State::connecting && now < 3000) {
            auto& q = t.link.inbox[at];
            while (!q.empty()) {
                const std::vector<std::uint8_t> d = std::move(q.front().bytes);
                q.pop_front();
                if (lose_first_accepted && !lost && protocol::is_sealed(d)) {
                    lost = true;
                    continue;
                }
                connection.on_datagram(d, now);
            }
            now += 50;
            connection.update(now);
        }
        return connection.state();
    }
    TokenServer& t;
    Endpoint at;
    int sent = 0;                  // datagrams the client sent
    std::size_t largest_sent = 0;  // bytes
    client::Connection connection;
    std::uint64_t now = 0;
};

}  // namespace

TEST_CASE("a token server admits a valid token under the token's name and player id") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    Joiner j(ts, endpoint(1, 5000), ts.token(7, "ann", kNow));
    REQUIRE(j.join() == client::State::connected);
    // Two round trips, as without a token: request → Challenge, response
    // (with the token) → Accepted.
    CHECK(j.sent == 2);
    const Session* s = ts.server->session(j.connection.admission().client_id);
    REQUIRE(s != nullptr);
    CHECK(s->name == "ann");
    CHECK(s->player_id == std::optional<std::uint64_t>(7));
    CHECK(ts.server->room(0).match().name(*s->slot) == "ann");
    // The session's keys are the exchange's with the token's mixed in: both
    // ends hold the same, and play goes on sealed with them.
    CHECK(j.connection.session_seal()->keys().send == s->seal->keys().receive);
    REQUIRE(j.connection.set_map(map_named("rink.json")));
    for (int i = 0; i < 30; ++i) {
        j.now += 16;
        j.connection.send_input(game::Input::move(1), j.now);
        ts.server->tick();
        for (auto& d : ts.link.inbox[j.at])
            j.connection.on_datagram(d.bytes, j.now);
        ts.link.inbox[j.at].clear();
    }
    CHECK(j.connection.replica()->holds());
    CHECK(j.connection.stats().forged_total() == 0);
}

TEST_CASE("an open server refuses a client with a token: token_invalid, rather than a timeout") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    protocol::TokenGrant g;
    g.player_id = 7;
    g.name = "ann";
    g.servers = {kAddress};
    const Endpoint at = endpoint(1, 5000);
    client::Connection c(
        Joiner::config(
            protocol::make_connect_token(protocol::make_token_key(), g, kNow, 60).value(), 0),
        [&](std::span<const std::uint8_t> d) { server.receive(at, d); });
    c.connect(0);
    for (std::uint64_t now = 0; now < 1000 && c.state() == client::State::connecting; now += 50) {
        for (auto& d : link.inbox[at])
            c.on_datagram(d.bytes, now);
        link.inbox[at].clear();
        c.update(now);
    }
    CHECK(c.state() == client::State::closed);
    CHECK(c.deny_reason() == net::DenyReason::token_invalid);
    CHECK(c.close_detail() == "this server takes no connect tokens");
}

TEST_CASE("the largest token fits a ConnectResponse datagram and admits its player") {
    std::uint64_t clock = kNow;
    protocol::TokenGrant g;
    g.player_id = 7;
    g.name = std::string(protocol::kMaxNameBytes, 'n');
    for (std::size_t i = 0; i < protocol::kMaxTokenServers; ++i)
        g.servers.push_back(std::string(protocol::kMaxTokenServerBytes - 1, 'a') +
                            std::to_string(i));
    g.user_data.assign(protocol::kMaxTokenUserDataBytes, 0x5A);
    ServerConfig config = config_for("rink.json");
    config.token_servers = {g.servers[3]};
    TokenServer ts(clock, config);
    const auto token = protocol::make_connect_token(ts.key, g, kNow, 60).value();
    REQUIRE(token.size() == protocol::kMaxConnectTokenBytes);
    Joiner j(ts, endpoint(1, 5000), token);
    REQUIRE(j.join() == client::State::connected);
    std::printf("the ConnectResponse with the largest token: %zu bytes\n", j.largest_sent);
    CHECK(j.largest_sent <= protocol::kMaxDatagramBytes);
}

TEST_CASE("a token server refuses a client without a token: token_required") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    Joiner j(ts, endpoint(1, 5000), {});
    CHECK(j.join() == client::State::closed);
    CHECK(j.connection.deny_reason() == net::DenyReason::token_required);
    CHECK(denied(*ts.server, net::DenyReason::token_required) == 1);
    CHECK(ts.server->session_count() == 0);
}

TEST_CASE("an expired token is refused: token_expired past the clock skew allowed") {
    std::uint64_t clock = kNow + 60 + protocol::kTokenClockSkewS;
    TokenServer ts(clock);
    Joiner in_skew(ts, endpoint(1, 5000), ts.token(7, "ann", kNow, 60));
    CHECK(in_skew.join() == client::State::connected);
    clock += 1;
    Joiner late(ts, endpoint(1, 5001), ts.token(8, "bob", kNow, 60));
    CHECK(late.join() == client::State::closed);
    CHECK(late.connection.deny_reason() == net::DenyReason::token_expired);
    CHECK(denied(*ts.server, net::DenyReason::token_expired) == 1);
}

TEST_CASE("a token is used once: another client's use is refused token_reused until it expires") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    const auto token = ts.token(7, "ann", kNow);
    Joiner first(ts, endpoint(1, 5000), token);
    REQUIRE(first.join() == client::State::connected);
    Joiner second(ts, endpoint(2, 5000), token);
    CHECK(second.join() == client::State::closed);
    CHECK(second.connection.deny_reason() == net::DenyReason::token_reused);
    // The first one gone, its token stays spent.
    first.connection.disconnect(first.now);
    ts.server->tick();
    REQUIRE(ts.server->session_count() == 0);
    Joiner third(ts, endpoint(1, 5000), token);
    CHECK(third.join() == client::State::closed);
    CHECK(third.connection.deny_reason() == net::DenyReason::token_reused);
    CHECK(denied(*ts.server, net::DenyReason::token_reused) == 2);
    // Past its expiry it is refused as expired.
    clock += 61 + protocol::kTokenClockSkewS;
    Joiner fourth(ts, endpoint(3, 5000), token);
    CHECK(fourth.join() == client::State::closed);
    CHECK(fourth.connection.deny_reason() == net::DenyReason::token_expired);
}

TEST_CASE("a token's own player takes its held slot back with it, and another client cannot") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    const auto token = ts.token(7, "ann", kNow);
    constexpr std::uint64_t kReclaim = 0x7e57'0000'0000'0001;
    Joiner first(ts, endpoint(1, 5000), token, kReclaim);
    REQUIRE(first.join() == client::State::connected);
    const std::uint32_t id = first.connection.admission().client_id;
    const auto slot = ts.server->session(id)->slot;
    // It goes silent: past the timeout its slot is held (the grace window).
    for (int t = 0; t < 6 * 60; ++t)
        ts.server->tick();
    REQUIRE(ts.server->session(id) != nullptr);
    REQUIRE_FALSE(ts.server->session(id)->connected);
    // Another client with the same token but not its reclaim token: refused.
    Joiner thief(ts, endpoint(2, 5000), token, 0x0BAD);
    CHECK(thief.join() == client::State::closed);
    CHECK(thief.connection.deny_reason() == net::DenyReason::token_reused);
    // The player, back from a new address with both: its session and slot.
    Joiner back(ts, endpoint(1, 5001), token, kReclaim);
    REQUIRE(back.join() == client::State::connected);
    CHECK(back.connection.admission().client_id == id);
    CHECK(ts.server->session(id)->slot == slot);
    CHECK(ts.server->session(id)->connected);
    CHECK(ts.server->session_count() == 1);
}

TEST_CASE("a token whose Accepted was lost gets the same Accepted again") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    Joiner j(ts, endpoint(1, 5000), ts.token(7, "ann", kNow));
    REQUIRE(j.join(true) == client::State::connected);
    CHECK(ts.server->session_count() == 1);
    CHECK(denied(*ts.server, net::DenyReason::token_reused) == 0);
}

TEST_CASE("a token with a byte changed, or made with another key, is refused token_invalid") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    const auto good = ts.token(7, "ann", kNow);
    const auto read = protocol::read_connect_token(good).value();
    // Each part of the private part: header (protocol, expiry), nonce,
    // ciphertext, tag (it starts 6 bytes into the token). A changed version
    // the client refuses itself.
    int n = 0;
    for (const std::size_t at : {std::size_t{4}, std::size_t{17}, protocol::kTokenHeaderBytes + 3,
                                 read.private_part.size() / 2, read.private_part.size() - 1}) {
        auto changed = good;
        changed[6 + at] ^= 0x04;
        Joiner j(ts, endpoint(1, static_cast<std::uint16_t>(6000 + n++)), changed);
        CAPTURE(at);
        CHECK(j.join() == client::State::closed);
        CHECK(j.connection.deny_reason() == net::DenyReason::token_invalid);
    }
    protocol::TokenGrant g;
    g.player_id = 7;
    g.name = "ann";
    g.servers = {kAddress};
    Joiner other_key(ts, endpoint(2, 5000),
                     protocol::make_connect_token(protocol::make_token_key(), g, kNow, 60).value());
    CHECK(other_key.join() == client::State::closed);
    CHECK(other_key.connection.deny_reason() == net::DenyReason::token_invalid);
    CHECK(denied(*ts.server, net::DenyReason::token_invalid) == 6);
    CHECK(ts.server->session_count() == 0);
    // The good one was never spent by them.
    Joiner j(ts, endpoint(3, 5000), good);
    CHECK(j.join() == client::State::connected);
}

TEST_CASE("a token for other servers is refused token_wrong_server, and one of several is enough") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    Joiner other(ts, endpoint(1, 5000), ts.token(7, "ann", kNow, 60, {"127.0.0.1:27961"}));
    CHECK(other.join() == client::State::closed);
    CHECK(other.connection.deny_reason() == net::DenyReason::token_wrong_server);
    CHECK(denied(*ts.server, net::DenyReason::token_wrong_server) == 1);
    Joiner ours(ts, endpoint(1, 5001), ts.token(8, "bob", kNow, 60, {"127.0.0.1:27961", kAddress}));
    CHECK(ours.join() == client::State::connected);
}

TEST_CASE("--ban-id refuses a player id (banned_id), and --ban still refuses a token name") {
    std::uint64_t clock = kNow;
    ServerConfig config = config_for("rink.json");
    config.banned_ids = {9};
    config.banned_names = {"eve"};
    TokenServer ts(clock, config);
    Joiner banned(ts, endpoint(1, 5000), ts.token(9, "nine", kNow));
    CHECK(banned.join() == client::State::closed);
    CHECK(banned.connection.deny_reason() == net::DenyReason::banned_id);
    CHECK(denied(*ts.server, net::DenyReason::banned_id) == 1);
    Joiner eve(ts, endpoint(1, 5001), ts.token(10, "eve", kNow));
    CHECK(eve.join() == client::State::closed);
    CHECK(eve.connection.deny_reason() == net::DenyReason::banned_name);
}

TEST_CASE("a token for a full room is refused room_full and stays unspent") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    std::vector<std::unique_ptr<Joiner>> players;
    const char* const names[] = {"p0", "p1", "p2", "p3"};  // rink: 2 v 2
    for (std::uint16_t i = 0; i < 4; ++i) {
        players.push_back(std::make_unique<Joiner>(
            ts, endpoint(1, static_cast<std::uint16_t>(5000 + i)), ts.token(i, names[i], kNow)));
        REQUIRE(players.back()->join() == client::State::connected);
    }
    const auto token = ts.token(99, "late", kNow);
    Joiner late(ts, endpoint(2, 5000), token);
    CHECK(late.join() == client::State::closed);
    CHECK(late.connection.deny_reason() == net::DenyReason::room_full);
    players[0]->connection.disconnect(players[0]->now);
    ts.server->tick();
    Joiner again(ts, endpoint(2, 5001), token);
    CHECK(again.join() == client::State::connected);
}

TEST_CASE("with a token, a party in the middle of the key exchange gets no session") {
    std::uint64_t clock = kNow;
    TokenServer ts(clock);
    const Endpoint at = endpoint(1, 5000);
    const protocol::KeyPair party = protocol::make_key_pair();
    std::vector<std::vector<std::uint8_t>> up;
    client::Connection c(Joiner::config(ts.token(7, "ann", kNow), 0),
                         [&](std::span<const std::uint8_t> d) {
                             up.emplace_back(d.begin(), d.end());
                             ts.server->receive(at, d);
                         });
    c.connect(0);
    auto& q = ts.link.inbox[at];
    REQUIRE(q.size() == 1);
    const Datagram challenge = q.front();
    q.clear();
    const net::Challenge& real = *challenge.packet()->body_as_Challenge();
    REQUIRE(real.server_key() != nullptr);
    const std::span<const std::uint8_t> server_key(real.server_key()->data(),
                                                   real.server_key()->size());

    // The Challenge reaches the client with the party's key in place of the server's.
    flatbuffers::FlatBufferBuilder b;
    const auto swapped_key = b.CreateVector(party.public_key.data(), party.public_key.size());
    const auto body = net::CreateChallenge(b, real.cookie(), real.nonce(), swapped_key);
    const auto swapped = protocol::finish_packet(b, 0, net::Body::Challenge, body.Union());
    c.on_datagram(std::vector<std::uint8_t>(swapped.begin(), swapped.end()), 0);
    REQUIRE(up.size() == 2);
    // The client's ConnectResponse reached the server: its hello, sealed with
    // keys of the party's exchange and the token's, does not open there.
    CHECK(ts.server->session_count() == 0);
    CHECK(ts.server->stats().dropped[static_cast<std::size_t>(Drop::bad_hello)] == 1);

    // The party's own response with the token's private part (it saw it) and
    // the keys of its exchange with the server: without the token's keys its
    // hello does not open either, and the token is not spent.
    const auto client_response = protocol::verify_packet(up[1]).value();
    const net::ConnectResponse& r = *client_response->body_as_ConnectResponse();
    const protocol::KeyPair own = protocol::make_key_pair();
    const auto keys = protocol::client_session_keys(own, server_key).value();
    const protocol::SessionSeal seal(keys);
    const std::array<std::uint8_t, protocol::kHelloBytes> hello{};
    flatbuffers::FlatBufferBuilder rb;
    const auto response = net::CreateConnectResponse(
        rb, rb.CreateString("ann"), -1, false, r.cookie(),
        rb.CreateVector(std::vector<std::uint8_t>(200)), r.nonce(),
        rb.CreateVector(own.public_key.data(), own.public_key.size()),
        rb.CreateVector(seal.seal_hello(hello)),
        rb.CreateVector(r.connect_token()->data(), r.connect_token()->size()));
    ts.server->receive(
        at, protocol::finish_packet(rb, 0, net::Body::ConnectResponse, response.Union()));
    CHECK(ts.server->session_count() == 0);
    CHECK(ts.server->stats().dropped[static_cast<std::size_t>(Drop::bad_hello)] == 2);
    CHECK(ts.link.inbox[at].empty());  // nothing sealed came back for the party to open
}

}  // namespace carom::server::test
