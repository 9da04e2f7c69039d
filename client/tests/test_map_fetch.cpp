// A player who lacks the room's map: it comes from the server over a lossy
// link, is kept in the cache by hash, and the next join needs no transfer.
#include <doctest/doctest.h>

#include <fstream>

#include "carom/maps/map_file.hpp"
#include "carom/protocol/map_codec.hpp"

#include "carom/loopback/lossy_link.hpp"
#include "carom/testing/temp_dir.hpp"

using namespace carom;
using namespace carom::play;
using namespace carom::play::test;
using carom::test::TempDir;

namespace {

const std::filesystem::path kStadiums = CAROM_STADIUMS_DIR;

// Ms from Accepted to the first state held, or -1 when it never came;
// `each_ms` (when set) after every simulated millisecond.
double join(LossyWorld& world, std::int64_t until_us, const std::function<void()>& each_ms = {}) {
    std::optional<std::uint64_t> accepted, in_play;
    world.run(until_us, {}, {}, [&] {
        const Player& p = world.player();
        if (!accepted && p.connection().state() == client::State::connected)
            accepted = world.now_ms();
        if (accepted && !in_play && p.match() != nullptr) in_play = world.now_ms();
        if (each_ms) each_ms();
    });
    return accepted && in_play ? static_cast<double>(*in_play - *accepted) : -1.0;
}

// A map at every list limit the format has (boxes, segments, walls, posts,
// discs; a 64-character name): the largest a server can send. The extra
// shapes lie off the field; the discs are small ones on it.
game::Map largest_map() {
    game::Map m = maps::load_map_file(kMaps / "arena.json").value();
    m.name = std::string(64, 'L');
    for (std::size_t i = 0; m.boxes.size() < game::limits::kBoxesMax; ++i)
        m.boxes.push_back({{-6000.0 + 10.0 * static_cast<double>(i % 500),
                            -6000.0 - 10.0 * static_cast<double>(i / 500)},
                           {1.0, 1.0}});
    for (std::size_t i = 0; m.segments.size() < game::limits::kSegmentsMax; ++i) {
        const double x = -6000.0 + 10.0 * static_cast<double>(i % 500);
        const double y = 6000.0 + 10.0 * static_cast<double>(i / 500);
        m.segments.push_back({{x, y}, {x + 5.0, y}});
    }
    for (std::size_t i = 0; m.walls.size() < game::limits::kWallsMax; ++i) {
        game::Wall w;
        const double x = -6000.0 + 10.0 * static_cast<double>(i % 500);
        const double y = 7000.0 + 10.0 * static_cast<double>(i / 500);
        w.a = {x, y};
        w.b = {x + 5.0, y};
        w.color = 0x123456;
        m.walls.push_back(w);
    }
    for (std::size_t i = 0; m.posts.size() < game::limits::kPostsMax; ++i) {
        game::Post p;
        p.position = {-6000.0 + 10.0 * static_cast<double>(i), -7000.0};
        m.posts.push_back(p);
    }
    for (std::size_t i = 0; m.discs.size() < game::limits::kDiscsMax; ++i) {
        game::Disc d;
        d.position = {46.0 + 2.0 * static_cast<double>(i % 16),
                      3.0 + 2.0 * static_cast<double>(i / 16)};
        d.radius = 0.1;
        m.discs.push_back(d);
    }
    return m;
}

// A map file of `map` written to `dir` (the server's map).
std::filesystem::path write_map(const game::Map& map, const std::filesystem::path& dir) {
    const std::filesystem::path file = dir / "map.json";
    std::ofstream out(file);
    out << maps::map_to_json(map).value();
    return file;
}

// 100 ms round trip, 5 % loss each way, a server of `map_file` and a
// client that holds no map (its cache `map_cache`, empty: none).
LinkConfig without_the_map(std::uint64_t seed, const std::filesystem::path& map_file,
                           const std::filesystem::path& map_cache = {}) {
    LinkConfig c;
    c.rtt_ms = 100;
    c.loss = 0.05;
    c.seed = seed;
    c.map_file = map_file;
    c.client_has_maps = false;
    c.map_cache = map_cache;
    return c;
}

}  // namespace

TEST_CASE("a 10 kB map is in play within 1 s of Accepted at 100 ms and 5 % loss") {
    // Arena with boxes off the field until its binary passes 10 kB.
    game::Map map = maps::load_map_file(kMaps / "arena.json").value();
    map.name = "ten";
    for (std::size_t i = 0; protocol::map_to_binary(map).size() < 10'000; ++i)
        map.boxes.push_back({{-6000.0 + 10.0 * static_cast<double>(i), -6000.0}, {1.0, 1.0}});
    const std::size_t bytes = protocol::map_to_binary(map).size();
    TempDir dir;
    std::vector<double> joins;
    const std::filesystem::path file = write_map(map, dir.path);
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        LossyWorld world(without_the_map(seed, file));
        const double ms = join(world, 3'000'000);
        INFO("seed " << seed << ": in play " << ms << " ms after Accepted");
        CHECK(ms >= 0.0);
        CHECK(ms < 1000.0);
        joins.push_back(ms);
    }
    std::sort(joins.begin(), joins.end());
    MESSAGE("a " << bytes << "-byte map, 10 seeds: in play after Accepted, median " << joins[4]
                 << " ms, max " << joins.back() << " ms");
}

TEST_CASE("the largest map the limits allow is fetched at 100 ms and 5 % loss") {
    const game::Map largest = largest_map();
    const std::vector<std::uint8_t> binary = protocol::map_to_binary(largest);
    const auto decoded = protocol::map_from_binary(binary);
    REQUIRE_MESSAGE(decoded, decoded.error().message);
    TempDir dir;
    const std::filesystem::path file = write_map(largest, dir.path);
    LossyWorld world(without_the_map(1, file, dir.path / "cache"));
    // What the screen says while the map comes.
    std::string progress;
    const double ms = join(world, 20'000'000, [&] {
        const protocol::MapDownload* d = world.player().connection().map_download();
        if (progress.empty() && d != nullptr && d->chunks_held() > 50)
            progress = world.player().scene(world.now_ms(), false).hud.note;
    });
    CHECK(progress.find("downloading map 'LLLL") == 0);
    CHECK(progress.find("% (") != std::string::npos);
    CHECK(progress.find("of 206.9 kB)") != std::string::npos);
    MESSAGE("the largest map: " << binary.size() << " bytes of binary ("
                                << std::filesystem::file_size(file) << " bytes of JSON), in play "
                                << ms << " ms after Accepted");
    CHECK(ms >= 0.0);
    CHECK(world.player().map_source() == "the server");
    CHECK(world.server().stats().map_bytes_out >= binary.size());
}

TEST_CASE("a stadium the client never saw is fetched at 100 ms and 5 % loss, cached, then found") {
    TempDir cache;
    std::vector<double> first_joins;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const LinkConfig c =
            without_the_map(seed, kStadiums / "curves.hbs", cache.path / std::to_string(seed));
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
        CHECK(std::filesystem::exists(maps::MapLibrary(c.map_cache, {}).cached_file(hash)));

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
