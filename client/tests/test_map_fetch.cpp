// A player who lacks the room's map: it comes from the server over a lossy
// link, is kept in the cache by hash, and the next join needs no transfer.
#include <doctest/doctest.h>

#include <unistd.h>

#include "lossy_link.hpp"

using namespace carom;
using namespace carom::play;
using namespace carom::play::test;

namespace {

const std::filesystem::path kStadiums = CAROM_STADIUMS_DIR;

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "carom-maps-XXXXXX").string();
        path = ::mkdtemp(pattern.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

// Ms from Accepted to the first state held, or -1 when it never came.
double join(LossyWorld& world, std::int64_t until_us) {
    std::optional<std::uint64_t> accepted, in_play;
    world.run(until_us, {}, {}, [&] {
        const Player& p = world.player();
        if (!accepted && p.connection().state() == client::State::connected) accepted = world.now_ms();
        if (accepted && !in_play && p.match() != nullptr) in_play = world.now_ms();
    });
    return accepted && in_play ? static_cast<double>(*in_play - *accepted) : -1.0;
}

}  // namespace

TEST_CASE("a stadium the client never saw is fetched at 100 ms and 5 % loss, cached, then found") {
    TempDir cache;
    std::vector<double> first_joins;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        LinkConfig c;
        c.rtt_ms = 100;
        c.loss = 0.05;
        c.seed = seed;
        c.map_file = kStadiums / "curves.hbs";
        c.client_has_maps = false;
        c.map_cache = cache.path / std::to_string(seed);
        LossyWorld world(c);
        const double ms = join(world, 3'000'000);
        INFO("seed " << seed << ": in play " << ms << " ms after Accepted");
        CHECK(ms >= 0.0);
        CHECK(ms < 1000.0);
        first_joins.push_back(ms);
        CHECK(world.player().map_source() == "the server");
        CHECK(world.player().cache_problem().empty());
        CHECK(world.server().stats().map_transfers_started == 1);
        CHECK(world.server().stats().map_transfers_completed == 1);
        const std::uint64_t hash = world.player().connection().admission().map_hash;
        CHECK(std::filesystem::exists(
            client::MapLibrary(c.map_cache, {}).cached_file(hash)));

        // The same cache again: no transfer.
        LossyWorld again(c);
        CHECK(join(again, 2'000'000) >= 0.0);
        CHECK(again.server().stats().map_transfers_started == 0);
        CHECK(again.player().map_source().find(".cmap") != std::string::npos);
    }
    MESSAGE("joins with a fetch (ms after Accepted): " << first_joins[0] << " " << first_joins[1]
                                                       << " " << first_joins[2] << " "
                                                       << first_joins[3] << " " << first_joins[4]);
}

TEST_CASE("a client with the map file of the same hash uses it without a transfer") {
    LinkConfig c;
    c.rtt_ms = 60;
    c.loss = 0.0;
    LossyWorld world(c);
    CHECK(join(world, 1'500'000) >= 0.0);
    CHECK(world.server().stats().map_transfers_started == 0);
    CHECK(world.player().map_source() == (kMaps / "arena.json").string());
}
