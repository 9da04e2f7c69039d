// Sessions nobody can steal: carom's client (Connection) against the real
// Server over the in-process link, with an attacker beside them. Off the
// path, it races the server's replies with forged Challenges and Accepteds;
// on the path, it sees every datagram both ways and sends them again,
// changed or as they were.
#include <doctest/doctest.h>

#include <cstdio>
#include <random>

#include "carom/client/connection.hpp"
#include "link.hpp"

namespace carom::server::test {
namespace {

std::uint64_t dropped(const Server& server, Drop why) {
    return server.stats().dropped[static_cast<std::size_t>(why)];
}

// What an off-path attacker can send a connecting client as if from the
// server: it knows the client's address, not its request (nonce, key).
std::vector<std::vector<std::uint8_t>> forgeries(std::mt19937_64& rng) {
    std::vector<std::vector<std::uint8_t>> forged;
    const protocol::KeyPair attacker = protocol::make_key_pair();
    const auto copy = [&](std::span<const std::uint8_t> b) {
        forged.emplace_back(b.begin(), b.end());
    };
    {
        flatbuffers::FlatBufferBuilder b;
        const auto key = b.CreateVector(attacker.public_key.data(), attacker.public_key.size());
        const auto body = net::CreateChallenge(b, rng(), rng(), key);
        copy(protocol::finish_packet(b, 0, net::Body::Challenge, body.Union()));
    }
    flatbuffers::FlatBufferBuilder a;
    const auto accepted =
        net::CreateAcceptedDirect(a, 0x0BAD, 0, 0, 0, 60, 60, "evil", rng(), rng(), 8, 4, 2, 64);
    const auto clear = protocol::finish_packet(a, 0x0BAD, net::Body::Accepted, accepted.Union());
    copy(clear);  // in the clear
    // Sealed with keys of the attacker's own (it never saw the client's key).
    protocol::SessionKeys keys;
    keys.send = attacker.secret_key;
    for (const std::uint64_t sequence : {std::uint64_t{1}, std::uint64_t{2}, rng() % 4096}) {
        protocol::SessionSeal seal(keys, sequence);
        protocol::DatagramBuffer out{};
        copy(seal.seal(clear, out));
    }
    {
        flatbuffers::FlatBufferBuilder b;
        const auto body = net::CreateDeniedDirect(b, net::DenyReason::banned_name, "forged", rng());
        copy(protocol::finish_packet(b, 0, net::Body::Denied, body.Union()));
    }
    return forged;
}

TEST_CASE("forged Challenges and Accepteds racing the server's never take a connecting client") {
    const unsigned seed = 0x5ea1ed;
    std::printf("forged handshake race: seed %u\n", seed);
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    Link link;
    InlineDiskWork disk;
    ServerConfig config = config_for("rink.json", 4);
    config.max_sessions_per_ip = 1000;
    config.handshake_replies_per_ip_s = 10000;
    Server server(config, link, disk, fixed_cookies(), "t");
    std::uint64_t forged_total = 0;
    constexpr int kJoins = 100;
    for (int i = 0; i < kJoins; ++i) {
        const Endpoint at = endpoint(1, static_cast<std::uint16_t>(20000 + i));
        client::ConnectionConfig cc;
        cc.name = "ann";
        cc.spectator = true;
        client::Connection c(cc, [&](std::span<const std::uint8_t> d) { server.receive(at, d); });
        c.connect(0);
        std::uint64_t now = 0;
        while (c.state() == client::State::connecting && now < 2000) {
            // Before each of the server's replies (Challenge, Accepted), the
            // attacker's land first.
            auto& q = link.inbox[at];
            while (!q.empty() && c.state() == client::State::connecting) {
                for (const auto& f : forgeries(rng))
                    c.on_datagram(f, now);
                const std::vector<std::uint8_t> d = std::move(q.front().bytes);
                q.pop_front();
                c.on_datagram(d, now);
            }
            now += 10;
            c.update(now);
        }
        CAPTURE(i);
        REQUIRE(c.state() == client::State::connected);
        const Session* s = server.session(c.admission().client_id);
        REQUIRE(s != nullptr);  // the real server's session, not the attacker's 0x0BAD
        CHECK(s->endpoint == at);
        CHECK(c.admission().map_name != "evil");
        forged_total += c.stats().forged_total();
        c.disconnect(now);
    }
    // Every forgery was counted: 6 a round, at least two rounds a join.
    CHECK(forged_total >= std::uint64_t{kJoins} * 2 * 6);
}

TEST_CASE("an attacker who sees every packet can neither read the keys nor act for either end") {
    Link link;
    InlineDiskWork disk;
    ServerConfig config = config_for("rink.json");
    Server server(config, link, disk, fixed_cookies(), "t");
    const Endpoint at = endpoint(1, 5000);
    std::vector<std::vector<std::uint8_t>> up, down;  // all the observer saw
    client::ConnectionConfig cc;
    cc.name = "bob";
    cc.token = 0x7e57'0000'5ec2'e7ed;
    client::Connection c(cc, [&](std::span<const std::uint8_t> d) {
        up.emplace_back(d.begin(), d.end());
        server.receive(at, d);
    });
    std::uint64_t now = 0;
    const auto deliver = [&] {
        auto& q = link.inbox[at];
        while (!q.empty()) {
            down.push_back(std::move(q.front().bytes));
            q.pop_front();
            c.on_datagram(down.back(), now);
        }
    };
    c.connect(now);
    for (int i = 0; i < 10 && c.state() == client::State::connecting; ++i)
        deliver();
    REQUIRE(c.state() == client::State::connected);
    REQUIRE(c.set_map(map_named("rink.json")));
    for (int t = 0; t < 120; ++t) {
        now += 16;
        c.send_input(game::Input::move(static_cast<std::uint8_t>(t % 8)), now);
        server.tick();
        deliver();
        c.update(now);
    }
    REQUIRE(c.replica() != nullptr);
    REQUIRE(c.replica()->holds());
    const std::uint32_t id = c.admission().client_id;
    const Session* s = server.session(id);
    REQUIRE(s != nullptr);
    const auto slot = *s->slot;

    // Nothing the observer saw carries the reclaim token or a key in the clear.
    std::array<std::uint8_t, 8> token{};
    for (std::size_t i = 0; i < 8; ++i)
        token[i] = static_cast<std::uint8_t>(cc.token >> (8 * i));
    const auto holds = [](const std::vector<std::uint8_t>& d, std::span<const std::uint8_t> what) {
        return std::search(d.begin(), d.end(), what.begin(), what.end()) != d.end();
    };
    for (const auto* dir : {&up, &down})
        for (const auto& d : *dir) {
            CHECK_FALSE(holds(d, token));
            CHECK_FALSE(holds(d, s->seal->keys().send));
            CHECK_FALSE(holds(d, s->seal->keys().receive));
        }
    // After the handshake, every datagram both ways was sealed.
    std::size_t sealed_up = 0, sealed_down = 0;
    for (const auto& d : up)
        sealed_up += protocol::is_sealed(d) ? 1U : 0U;
    for (const auto& d : down)
        sealed_down += protocol::is_sealed(d) ? 1U : 0U;
    CHECK(sealed_up == up.size() - 2);      // all but ConnectRequest and ConnectResponse
    CHECK(sealed_down == down.size() - 1);  // all but the Challenge

    // Acting for the player: its datagrams sent again (replayed), with any
    // byte changed, or rebuilt from their bytes, from its own address.
    const game::Input held = server.room(0).match().last_input(slot);
    const std::uint64_t heard = s->last_heard_tick;
    const std::uint64_t before = server.stats().invalid_total();
    for (std::size_t i = 2; i < up.size(); ++i) {
        server.receive(at, up[i]);  // replayed
        std::vector<std::uint8_t> changed = up[i];
        changed[changed.size() / 2] ^= 0x20;
        server.receive(at, changed);
        changed = up[i];
        changed[1] ^= 0x01;  // the sequence: a new nonce, the tag no longer fits
        server.receive(at, changed);
    }
    // A replayed handshake: the ConnectResponse again, and from another address.
    server.receive(at, up[1]);
    server.receive(endpoint(9, 9000), up[1]);
    const std::uint64_t refused = server.stats().invalid_total() - before;
    CHECK(refused >= 3 * (up.size() - 2));
    // Replayed or changed, a sealed datagram is refused on its sequence (taken
    // already, or outside the window) or on its tag, before it is read.
    CHECK(dropped(server, Drop::replayed_sequence) + dropped(server, Drop::old_sequence) +
              dropped(server, Drop::bad_tag) ==
          3 * (up.size() - 2));
    server.tick();
    CHECK(server.session(id) != nullptr);
    CHECK(server.session(id)->last_heard_tick == heard);  // nothing kept it alive
    CHECK(server.room(0).match().last_input(slot) == held);
    CHECK(server.session_count() == 1);

    // Acting for the server: its datagrams sent to the player again, or changed.
    link.inbox[at].clear();
    const std::uint64_t forged_before = c.stats().forged_total();
    const std::uint64_t tick_before = c.replica()->tick();
    for (std::size_t i = 1; i < down.size(); ++i) {
        c.on_datagram(down[i], now);
        std::vector<std::uint8_t> changed = down[i];
        changed[changed.size() - 1] ^= 0x01;
        c.on_datagram(changed, now);
    }
    CHECK(c.state() == client::State::connected);
    CHECK(c.replica()->tick() == tick_before);
    CHECK(c.stats().forged_total() - forged_before == 2 * (down.size() - 1));
}

}  // namespace
}  // namespace carom::server::test
