// The halting rule: a room nobody is in does not run. It neither steps nor
// records; the first one in wakes it, and finds the match where it stopped
// (or a fresh one, if it had ended); --run-empty-rooms keeps rooms running.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <spdlog/fmt/fmt.h>
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

struct TempDir {
    explicit TempDir(const char* name)
        : path(std::filesystem::temp_directory_path() /
               fmt::format("carom-idle-{}-{}", name, ::getpid())) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::filesystem::path path;
};

std::size_t replays_in(const std::filesystem::path& dir) {
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        n += e.path().extension() == ".crpl" ? 1U : 0U;
    return n;
}

void run(Server& server, int ticks, ScriptedClient* keep_alive = nullptr) {
    for (int t = 0; t < ticks; ++t) {
        if (keep_alive) keep_alive->keep_alive();
        server.tick();
    }
}

// rink.json with matches of `seconds`.
std::filesystem::path short_rink(const std::filesystem::path& dir, int seconds) {
    std::ifstream in(kMaps / "rink.json");
    std::stringstream text;
    text << in.rdbuf();
    std::string json = text.str();
    const std::string from = "\"match_seconds\": 120";
    REQUIRE(json.find(from) != std::string::npos);
    json.replace(json.find(from), from.size(), fmt::format("\"match_seconds\": {}", seconds));
    const auto path = dir / "rink.json";
    std::ofstream(path) << json;
    return path;
}

}  // namespace

TEST_CASE("a room nobody is in does not run, and a joiner finds its match where it stopped") {
    TempDir dir("resume");
    ServerConfig config = config_for("rink.json", 2);
    config.bots = true;
    config.replay_dir = dir.path;
    config.timeout_s = 60;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    run(server, 300);
    // Bots in every slot, and still nothing plays or records for nobody.
    CHECK(server.room(0).asleep());
    CHECK(server.room(1).asleep());
    CHECK(replays_in(dir.path) == 0);
    CHECK(server.stats().packets_out == 0);

    ScriptedClient ana(server, link, endpoint(1, 5000));
    REQUIRE(ana.connect("ana", 0)->body_type() == net::Body::Accepted);
    CHECK_FALSE(server.room(0).asleep());
    CHECK(server.room(0).match().tick() == 0);  // the room's first match starts now
    run(server, 150, &ana);
    const std::uint64_t hash_when_left = server.room(0).state_hash();
    const game::MatchState state_when_left = server.room(0).match().save();
    REQUIRE(state_when_left.tick == 150);
    ana.disconnect();
    run(server, 1);
    CHECK(server.room(0).asleep());
    CHECK(server.room(1).asleep());
    run(server, 600);  // ten seconds nobody plays
    const Scoreboard board = server.room(0).scoreboard();
    CHECK(board.ticks_left == game::ticks_left(server.room(0).map(), 150));

    // The next one in gets the match as it was, with its replay going on.
    ScriptedClient bo(server, link, endpoint(2, 5000));
    REQUIRE(bo.connect("bo", 0)->body_type() == net::Body::Accepted);
    CHECK(server.room(0).match_number() == 1);
    CHECK(server.room(0).match().tick() == 150);
    const std::uint64_t now = server.current_tick();
    CHECK(server.room(0).match_start_tick() == now - 150);
    run(server, 60, &bo);
    CHECK(server.room(0).match().tick() == 210);
    CHECK(hash_when_left != server.room(0).state_hash());

    // The replay re-simulates across the sleep, every tick, and room 1 recorded nothing.
    const auto summaries = server.shutdown();
    REQUIRE(summaries.size() == 1);
    CHECK(summaries[0].room == 0);
    CHECK(replays_in(dir.path) == 1);
    const auto read = replay::read_replay(summaries[0].replay);
    REQUIRE(read.ok());
    CHECK(read->last_tick() == 210);
    const replay::VerifyReport report = replay::verify(*read, {.synctest = true, .progress = {}});
    CHECK_FALSE(report.divergence.has_value());
}

TEST_CASE("a sleeping room's state is what it was: the joiner's FullState has its hash") {
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.timeout_s = 60;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient ana(server, link, endpoint(1, 5000));
    REQUIRE(ana.connect("ana", 0)->body_type() == net::Body::Accepted);
    run(server, 90, &ana);
    ana.disconnect();  // a bot takes the slot back
    const std::uint64_t hash_when_left = server.room(0).state_hash();
    run(server, 120);
    REQUIRE(server.room(0).asleep());

    // A spectator is someone in the room too: it wakes it.
    ScriptedClient watcher(server, link, endpoint(2, 5000));
    REQUIRE(watcher.connect("eve", 0, true)->body_type() == net::Body::Accepted);
    CHECK_FALSE(server.room(0).asleep());
    CHECK(server.room(0).state_hash() == hash_when_left);
    watcher.keep_copy(map_named("rink.json"));
    run(server, 1, &watcher);
    REQUIRE(watcher.take() > 0);
    CHECK(watcher.copy().match().tick() == 91);
    CHECK(watcher.copy().match().state_hash() == server.room(0).state_hash());
}

TEST_CASE(
    "a match that ends while its room is empty is closed, and the next one in starts a fresh one") {
    TempDir dir("ended");
    ServerConfig config = config_for("rink.json");
    config.maps = {short_rink(dir.path, 2)};
    config.bots = true;
    config.replay_dir = dir.path / "replays";
    config.final_pause_s = 5.0;
    config.timeout_s = 60;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient ana(server, link, endpoint(1, 5000));
    REQUIRE(ana.connect("ana", 0)->body_type() == net::Body::Accepted);
    run(server, 2 * 60 + 30, &ana);  // the match is over; its final whistle has begun
    REQUIRE(server.room(0).match().phase() == game::Phase::finished);
    ana.disconnect();
    run(server, 1);
    CHECK(server.room(0).asleep());
    REQUIRE(server.matches_finished() == 1);
    const MatchSummary& ended = server.finished_matches().back();
    const auto read = replay::read_replay(ended.replay);
    REQUIRE(read.ok());
    CHECK(read->footer.has_value());

    ScriptedClient bo(server, link, endpoint(2, 5000));
    REQUIRE(bo.connect("bo", 0)->body_type() == net::Body::Accepted);
    CHECK(server.room(0).match_number() == 2);
    CHECK(server.room(0).match().tick() == 0);
    CHECK(server.room(0).match().phase() == game::Phase::playing);
    server.shutdown();
}

TEST_CASE("--run-empty-rooms: rooms nobody is in play on and record their bots' matches") {
    TempDir dir("run");
    ServerConfig config = config_for("rink.json", 2);
    config.bots = true;
    config.run_empty_rooms = true;
    config.replay_dir = dir.path;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    run(server, 120);
    CHECK_FALSE(server.room(0).asleep());
    CHECK(server.room(0).match().tick() == 120);
    CHECK(server.room(1).match().tick() == 120);
    CHECK(replays_in(dir.path) == 2);
    server.shutdown();
}
