// Connect tokens: made by a backend, read by the client, opened by the server.
#include <doctest/doctest.h>

#include "carom/protocol/connect_token.hpp"

namespace carom::protocol {
namespace {

constexpr std::uint64_t kNow = 1'800'000'000;

TokenGrant ann() {
    TokenGrant g;
    g.player_id = 7;
    g.name = "ann";
    g.servers = {"127.0.0.1:4000", "[::1]:4000"};
    g.user_data = {1, 2, 3, 255};
    return g;
}

}  // namespace

TEST_CASE(
    "a token's every field round-trips: the client reads the public part, the server the private") {
    const Key key = make_token_key();
    const auto bytes = make_connect_token(key, ann(), kNow, 60);
    REQUIRE(bytes);
    CHECK(bytes->size() <= kMaxConnectTokenBytes);
    const auto token = read_connect_token(*bytes);
    REQUIRE(token);
    CHECK(token->header.version == kConnectTokenVersion);
    CHECK(token->header.protocol == kProtocolVersion);
    CHECK(token->header.created_unix_s == kNow);
    CHECK(token->header.expires_unix_s == kNow + 60);
    CHECK(token->servers == ann().servers);
    CHECK(token->private_part.size() <= kMaxTokenPrivateBytes);

    const TokenOpening opened = open_connect_token(key, token->private_part, kNow + 1);
    REQUIRE(opened.token);
    const OpenedToken& t = *opened.token;
    CHECK(t.grant.player_id == 7);
    CHECK(t.grant.name == "ann");
    CHECK(t.grant.servers == ann().servers);
    CHECK(t.grant.user_data == ann().user_data);
    CHECK(t.client_to_server == token->client_to_server);
    CHECK(t.server_to_client == token->server_to_client);
    CHECK(t.client_to_server != t.server_to_client);
    CHECK(t.header.expires_unix_s == kNow + 60);
    CHECK(t.id != 0);
}

TEST_CASE("the largest token fits its limits, and a grant past them is refused") {
    const Key key = make_token_key();
    TokenGrant g;
    g.player_id = ~std::uint64_t{0};
    g.name = std::string(kMaxNameBytes, 'n');
    for (std::size_t i = 0; i < kMaxTokenServers; ++i)
        g.servers.push_back(std::string(kMaxTokenServerBytes - 1, 'a') + std::to_string(i));
    g.user_data.assign(kMaxTokenUserDataBytes, 0xAB);
    const auto bytes = make_connect_token(key, g, kNow, 1);
    REQUIRE(bytes);
    const auto token = read_connect_token(*bytes);
    REQUIRE(token);
    CHECK(token->private_part.size() == kMaxTokenPrivateBytes);
    CHECK(bytes->size() == kMaxConnectTokenBytes);
    CHECK(open_connect_token(key, token->private_part, kNow).token);

    auto more = g;
    more.user_data.push_back(0);
    CHECK_FALSE(make_connect_token(key, more, kNow, 1));
    more = g;
    more.servers.push_back("x:1");
    CHECK_FALSE(make_connect_token(key, more, kNow, 1));
    more = g;
    more.servers = {};
    CHECK_FALSE(make_connect_token(key, more, kNow, 1));
    more = g;
    more.servers[0] += "x";
    CHECK_FALSE(make_connect_token(key, more, kNow, 1));
    more = g;
    more.name = "has space";
    CHECK_FALSE(make_connect_token(key, more, kNow, 1));
    more.name = std::string(kMaxNameBytes + 1, 'n');
    CHECK_FALSE(make_connect_token(key, more, kNow, 1));
    CHECK_FALSE(make_connect_token(key, ann(), kNow, 0));
}

TEST_CASE("a token with any byte changed is refused, by the client's reading or the server's key") {
    const Key key = make_token_key();
    const auto bytes = make_connect_token(key, ann(), kNow, 60);
    REQUIRE(bytes);
    const auto token = read_connect_token(*bytes);
    REQUIRE(token);
    const std::vector<std::uint8_t> priv = token->private_part;
    for (std::size_t i = 0; i < priv.size(); ++i) {
        auto changed = priv;
        changed[i] ^= 0x01;
        CAPTURE(i);
        CHECK_FALSE(open_connect_token(key, changed, kNow).token);
    }
    // Cut or lengthened.
    CHECK_FALSE(open_connect_token(key, std::span(priv).first(priv.size() - 1), kNow).token);
    auto longer = priv;
    longer.push_back(0);
    CHECK_FALSE(open_connect_token(key, longer, kNow).token);
    CHECK_FALSE(open_connect_token(key, {}, kNow).token);
    // The whole token's framing.
    for (std::size_t i = 0; i < 6; ++i) {
        auto changed = *bytes;
        changed[i] ^= 0x40;
        CHECK_FALSE(read_connect_token(changed));
    }
    CHECK_FALSE(read_connect_token(std::span(*bytes).first(bytes->size() - 1)));
}

TEST_CASE("a token opens only with its own key") {
    const auto bytes = make_connect_token(make_token_key(), ann(), kNow, 60);
    REQUIRE(bytes);
    const auto token = read_connect_token(*bytes);
    REQUIRE(token);
    const TokenOpening o = open_connect_token(make_token_key(), token->private_part, kNow);
    CHECK_FALSE(o.token);
    CHECK(o.refused == TokenRefusal::invalid);
}

TEST_CASE("a token expires after its lifetime and the clock skew allowed") {
    const Key key = make_token_key();
    const auto token = read_connect_token(*make_connect_token(key, ann(), kNow, 60));
    REQUIRE(token);
    CHECK(open_connect_token(key, token->private_part, kNow + 60 + kTokenClockSkewS).token);
    const TokenOpening late =
        open_connect_token(key, token->private_part, kNow + 61 + kTokenClockSkewS);
    CHECK_FALSE(late.token);
    CHECK(late.refused == TokenRefusal::expired);
}

TEST_CASE("two tokens of one grant differ in keys and id") {
    const Key key = make_token_key();
    const auto a = read_connect_token(*make_connect_token(key, ann(), kNow, 60));
    const auto b = read_connect_token(*make_connect_token(key, ann(), kNow, 60));
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->client_to_server != b->client_to_server);
    CHECK(open_connect_token(key, a->private_part, kNow).token->id !=
          open_connect_token(key, b->private_part, kNow).token->id);
}

TEST_CASE("keys and tokens as text round-trip, and other text is refused") {
    const Key key = make_token_key();
    const std::string hex = key_to_hex(key);
    CHECK(hex.size() == 64);
    CHECK(*key_from_hex(" " + hex + "\n") == key);
    CHECK_FALSE(key_from_hex(hex.substr(1)));
    CHECK_FALSE(key_from_hex(hex + "00"));
    CHECK_FALSE(key_from_hex(std::string(64, 'g')));

    const auto bytes = make_connect_token(key, ann(), kNow, 60);
    const std::string text = token_to_text(*bytes);
    CHECK(text.find_first_of("+/=") == std::string::npos);
    CHECK(*token_from_text(text + "\n") == *bytes);
    CHECK_FALSE(token_from_text("not base64!"));
    CHECK_FALSE(token_from_text(""));
}

TEST_CASE("mixed keys agree between the ends, and differ from the exchange's and between tokens") {
    const KeyPair client = make_key_pair();
    const KeyPair server = make_key_pair();
    const auto c = client_session_keys(client, server.public_key);
    const auto s = server_session_keys(server, client.public_key);
    REQUIRE(c);
    REQUIRE(s);
    const Key c2s = make_token_key();
    const Key s2c = make_token_key();
    const SessionKeys cm = mix_token_keys(*c, c2s, s2c, true);
    const SessionKeys sm = mix_token_keys(*s, c2s, s2c, false);
    CHECK(cm.send == sm.receive);
    CHECK(cm.receive == sm.send);
    CHECK(cm.send != c->send);
    CHECK(cm.send != cm.receive);
    CHECK(mix_token_keys(*c, make_token_key(), s2c, true).send != cm.send);
}

}  // namespace carom::protocol
