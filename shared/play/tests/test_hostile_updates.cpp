// Updates built to hurt: mutated bytes, states of another map, a state
// with disks far off the field or a phase that does not exist, forged
// seals. The player counts and drops them, keeps drawing, and takes the
// good ones that follow. Seed printed; CAROM_SEED=n reruns one.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

#include "carom/client/testing/fake_server.hpp"
#include "carom/maps/library_map_store.hpp"
#include "carom/play/player.hpp"
#include "carom/render/render.hpp"

namespace carom::play {

TEST_CASE("player_survives_malformed_and_hostile_updates") {
    client::test::FakeRoom room("arena", 0);
    client::test::FakeRoom other("rink", 0);  // another map's states
    PlayerConfig config;
    maps::LibraryMapStore maps(maps::MapLibrary({}, {CAROM_MAPS_DIR}));
    std::vector<client::test::Bytes> sent;
    client::test::ServerEnd server;
    Player player(config, maps, [&](std::span<const std::uint8_t> d) {
        sent.push_back(client::test::copy_of(d));
    });
    const auto receive = [&](const client::test::Bytes& clear, std::uint64_t now_ms) {
        player.on_datagram(server.answer(clear, sent), now_ms);
    };
    player.start(0);
    receive(client::test::challenge(7), 0);
    client::test::AcceptedFields a;
    a.map_name = "arena";
    a.map_hash = room.map_hash();
    a.slot = 0;
    a.team = 0;
    receive(client::test::accepted(a), 0);
    REQUIRE(player.map() != nullptr);

    const char* env = std::getenv("CAROM_SEED");
    const std::uint64_t seed = env != nullptr ? std::strtoull(env, nullptr, 10) : 13;
    MESSAGE("seed " << seed);
    std::mt19937_64 rng(seed);
    std::uint64_t now = 0;
    std::uint64_t held = 0;
    for (int i = 0; i < 3000; ++i) {
        now += 16;
        room.step_idle();
        other.step_idle();
        client::test::Bytes bytes;
        switch (rng() % 6) {
            case 0:
                bytes = room.full_state();
                break;
            case 1:
                bytes = other.full_state();
                break;
            case 2:  // a forged seal
                bytes = client::test::forged_seal(room.update(held != 0 ? held : room.tick() - 1));
                break;
            default:
                bytes = room.update(held != 0 ? held : room.tick() - 1);
                break;
        }
        if (rng() % 2 == 0)  // flipped bytes, sealed after (the decoders see them) or not
            for (int k = 0; k < 4; ++k)
                bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(rng());
        if (rng() % 3 != 0) bytes = server.answer(bytes, sent);  // else left in the clear
        if (rng() % 8 == 0) bytes.resize(rng() % bytes.size());
        player.on_datagram(bytes, now);
        if (const client::Replica* r = player.connection().replica(); r != nullptr && r->holds())
            held = r->tick();
        player.tick(now);
        const render::Scene scene = player.scene(now, i % 2 == 0);
        (void)render::render(scene, 80, 24, render::Glyphs::braille);
    }
    const client::ConnectionStats& st = player.connection().stats();
    MESSAGE("invalid " << st.invalid_total() << ", undecodable " << st.undecodable << ", forged "
                       << st.forged_total() << ", failed state checks " << st.hash_mismatches
                       << ", resyncs " << st.resyncs << ", taken " << st.states_taken);
    CHECK(st.invalid_total() + st.undecodable > 0);
    CHECK(st.forged_total() > 0);   // forged seals, unsealed, and flipped sealed bytes
    CHECK(st.hash_mismatches > 0);  // another map's states
    CHECK(st.states_taken > 100);
    CHECK(player.connection().state() == client::State::connected);
    // After a reconnect (a flipped tick, which no proof covers in a FullState,
    // may have moved the copy far on), a good state and update are taken.
    player.start(now);
    receive(client::test::challenge(7), now);
    receive(client::test::accepted(a), now);
    room.step_idle();
    receive(room.full_state(), now + 16);
    const std::uint64_t state_tick = room.tick();
    room.step_idle();
    receive(room.update(state_tick), now + 32);
    REQUIRE(player.connection().replica()->holds());
    CHECK(player.connection().replica()->match().state_hash() == room.match().state_hash());
}

}  // namespace carom::play
