// Snapshots built to hurt: mutated bytes, frames with wrong entity counts,
// disks at the far end of int32. The session counts and drops them, and
// keeps drawing. Seed printed; CAROM_SEED=n reruns one.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

#include "carom/client/map_lookup.hpp"
#include "carom/play/session.hpp"
#include "carom/render/render.hpp"
#include "fake_server.hpp"

namespace carom::play {

TEST_CASE("session_survives_malformed_and_hostile_snapshots") {
    const std::filesystem::path dirs[] = {CAROM_MAPS_DIR};
    const game::Map arena = *client::find_map("arena", dirs);
    SessionConfig config;
    config.map_dirs = {CAROM_MAPS_DIR};
    Session session(config, [](std::span<const std::uint8_t>) {});
    session.start(0);
    session.on_datagram(client::test::challenge(7), 0);
    client::test::AcceptedFields a;
    a.map_name = "arena";
    a.map_hash = protocol::map_hash(arena);
    a.slot = 0;
    a.team = 0;
    session.on_datagram(client::test::accepted(a), 0);
    REQUIRE(session.map() != nullptr);

    const char* env = std::getenv("CAROM_SEED");
    const std::uint64_t seed = env != nullptr ? std::strtoull(env, nullptr, 10) : 13;
    MESSAGE("seed " << seed);
    std::mt19937_64 rng(seed);
    const game::Match match(arena, 1);
    protocol::Frame good = protocol::frame_of(match);
    std::uint64_t now = 0;
    for (int i = 0; i < 3000; ++i) {
        now += 16;
        protocol::Frame f = good;
        f.tick = static_cast<std::uint64_t>(i + 1);
        switch (rng() % 4) {
            case 0:  // far away and fast
                for (net::DiskQ& d : f.disks)
                    d = net::DiskQ(
                        static_cast<std::int32_t>(rng()), static_cast<std::int32_t>(rng()),
                        static_cast<std::int32_t>(rng()), static_cast<std::int32_t>(rng()));
                break;
            case 1:  // the wrong number of disks
                f.disks.resize(rng() % 40);
                break;
            case 2:  // an unknown phase
                f.phase = static_cast<game::Phase>(rng() % 256);
                break;
            default:
                break;
        }
        client::test::Bytes bytes = client::test::snapshot(f, nullptr);
        if (rng() % 2 == 0)  // flipped bytes
            for (int k = 0; k < 4; ++k)
                bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(rng());
        if (rng() % 8 == 0) bytes.resize(rng() % bytes.size());
        session.on_datagram(bytes, now);
        session.tick(now);
        const render::Scene scene = session.scene(now, i % 2 == 0);
        (void)render::render(scene, 80, 24, render::Glyphs::braille);
    }
    const client::ConnectionStats& st = session.connection().stats();
    MESSAGE("invalid " << st.invalid_total() << ", undecodable " << st.snapshots_undecodable
                       << ", applied " << st.snapshots_received
                       << ", frames refused by the session " << session.frames_rejected()
                       << ", by the prediction " << session.predictor()->stats().rejected);
    CHECK(st.invalid_total() + st.snapshots_undecodable > 0);
    CHECK(session.frames_rejected() + session.predictor()->stats().rejected > 0);
    CHECK(session.connection().state() == client::State::connected);
}

}  // namespace carom::play
