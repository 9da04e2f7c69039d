// Updates built to hurt: mutated bytes, states of another map, a state
// with disks far off the field or a phase that does not exist, forged
// MACs. The player counts and drops them, keeps drawing, and takes the
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
    constexpr std::uint64_t kSecret = 0xfeed'beef'0000'0042;
    client::test::FakeRoom room("arena", kSecret, 0);
    client::test::FakeRoom other("rink", kSecret, 0);  // another map's states
    PlayerConfig config;
    maps::LibraryMapStore maps(maps::MapLibrary({}, {CAROM_MAPS_DIR}));
    Player player(config, maps, [](std::span<const std::uint8_t>) {});
    player.start(0);
    player.on_datagram(client::test::challenge(7), 0);
    client::test::AcceptedFields a;
    a.map_name = "arena";
    a.map_hash = room.map_hash();
    a.slot = 0;
    a.team = 0;
    a.secret = kSecret;
    player.on_datagram(client::test::accepted(a), 0);
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
            case 2:  // a forged MAC
                bytes = room.forged_update(held != 0 ? held : room.tick() - 1,
                                           static_cast<std::uint32_t>(rng()));
                break;
            default:
                bytes = room.update(held != 0 ? held : room.tick() - 1);
                break;
        }
        if (rng() % 2 == 0)  // flipped bytes
            for (int k = 0; k < 4; ++k)
                bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(rng());
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
                       << st.forged_updates << ", failed state checks " << st.hash_mismatches
                       << ", resyncs " << st.resyncs << ", taken " << st.states_taken);
    CHECK(st.invalid_total() + st.undecodable > 0);
    CHECK(st.forged_updates > 0);   // forged MACs, and flipped bytes the MAC covers
    CHECK(st.hash_mismatches > 0);  // another map's states
    CHECK(st.states_taken > 100);
    CHECK(player.connection().state() == client::State::connected);
    // After a reconnect (a flipped tick, which no proof covers in a FullState,
    // may have moved the copy far on), a good state and update are taken.
    player.start(now);
    player.on_datagram(client::test::challenge(7), now);
    player.on_datagram(client::test::accepted(a), now);
    room.step_idle();
    player.on_datagram(room.full_state(), now + 16);
    const std::uint64_t state_tick = room.tick();
    room.step_idle();
    player.on_datagram(room.update(state_tick), now + 32);
    REQUIRE(player.connection().replica()->holds());
    CHECK(player.connection().replica()->match().state_hash() == room.match().state_hash());
}

}  // namespace carom::play
