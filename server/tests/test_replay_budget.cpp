// The replay directory's disk budget (replay_budget.hpp): through the real
// server, matches of a second each fill a small budget; and the budget alone,
// on files of known sizes and ages.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include <spdlog/fmt/fmt.h>

#include "carom/replay/reader.hpp"
#include "carom/replay_index/index.hpp"
#include "link.hpp"
#include "replay_budget.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const char* name) {
    const auto dir =
        fs::temp_directory_path() / fmt::format("carom-budget-{}-{}", name, ::getpid());
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::uint64_t crpl_bytes(const fs::path& dir) {
    std::uint64_t sum = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".crpl") sum += e.file_size();
    return sum;
}

void write_file(const fs::path& path, std::size_t bytes, std::chrono::hours age) {
    std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
    fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

// The rink with matches of one second, written into `dir`.
fs::path one_second_rink(const fs::path& dir) {
    std::ifstream in(kMaps / "rink.json");
    const std::string rink((std::istreambuf_iterator<char>(in)), {});
    const std::string key = R"("match_seconds": )";
    const std::size_t value = rink.find(key);
    REQUIRE(value != std::string::npos);
    const std::size_t from = value + key.size();
    const std::size_t to = rink.find_first_not_of("0123456789", from);
    const fs::path map = dir / "one-second.json";
    // Written in three pieces: gcc 12 warns falsely (-Wrestrict) about
    // std::string::replace with a literal at -O3.
    std::ofstream(map) << rink.substr(0, from) << '1' << rink.substr(to);
    return map;
}

}  // namespace

TEST_CASE("a server with a small replay budget keeps the newest matches within it") {
    const fs::path dir = fresh_dir("server");
    // The rink with matches of one second: a replay of a few KB every 60 ticks per room.
    const fs::path map = one_second_rink(dir);
    constexpr std::uint64_t kBudgetBytes = 40 * 1024;
    ServerConfig config = config_for("rink.json", 2);
    config.maps = {map};
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.final_pause_s = 0;
    config.replay_dir = dir / "replays";
    config.replay_max_bytes = kBudgetBytes;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    // 40 s of play: 80 matches of about 6 KB, twice the budget and more.
    for (int t = 0; t < 40 * 60; ++t)
        server.tick();

    const auto& finished = server.finished_matches();
    REQUIRE(finished.size() >= 60);
    const Stats& stats = server.stats();
    // Within the budget, and the figure the metrics report is the directory's.
    CHECK(stats.replay_bytes_kept <= kBudgetBytes);
    CHECK(stats.replay_bytes_kept == crpl_bytes(config.replay_dir));
    CHECK(stats.replay_files_removed > 0);
    // The replays being written are never removed.
    for (std::uint32_t r = 0; r < server.room_count(); ++r) {
        REQUIRE_FALSE(server.room(r).recording().empty());
        CHECK(fs::exists(server.room(r).recording()));
    }
    // The oldest went first: what is left is the newest finished matches, in one run.
    std::size_t kept = 0;
    bool gap = false;
    for (auto it = finished.rbegin(); it != finished.rend(); ++it) {
        const bool exists = fs::exists(it->replay);
        if (exists && gap) FAIL("an older replay kept while a newer one was removed");
        gap = gap || !exists;
        kept += exists ? 1 : 0;
    }
    CHECK(kept > 0);
    CHECK(stats.replay_files_removed == finished.size() - kept);
    // The index has a row for each finished replay left, and none for those removed.
    std::set<std::string> finished_left, indexed;
    for (const MatchSummary& m : finished)
        if (fs::exists(m.replay)) finished_left.insert(m.replay.filename().string());
    auto index = replay_index::Index::open(config.replay_dir);
    REQUIRE(index.ok());
    const auto rows = index->find({});
    REQUIRE(rows.ok());
    for (const replay_index::MatchRow& row : *rows)
        indexed.insert(row.file);
    CHECK(indexed == finished_left);
    // The server's rows, made from what it wrote, are those of the files read back.
    for (const replay_index::MatchRow& row : *rows) {
        CAPTURE(row.file);
        const auto read = replay::read_replay(config.replay_dir / row.file);
        REQUIRE(read.ok());
        const replay_index::MatchRow back =
            replay_index::row_of(config.replay_dir / row.file, *read);
        CHECK(row.file_bytes == back.file_bytes);
        CHECK(row.room == back.room);
        CHECK(row.map == back.map);
        CHECK(row.seed == back.seed);
        CHECK(row.ticks == back.ticks);
        CHECK(row.start_time == back.start_time);
        CHECK(row.end_time == back.end_time);
        CHECK(row.score_left == back.score_left);
        CHECK(row.score_right == back.score_right);
        CHECK(row.result == back.result);
        CHECK(row.final_hash == back.final_hash);
        CHECK(row.producer == back.producer);
        REQUIRE(row.players.size() == back.players.size());
        for (std::size_t i = 0; i < row.players.size(); ++i) {
            CHECK(row.players[i].slot == back.players[i].slot);
            CHECK(row.players[i].name == back.players[i].name);
            CHECK(row.players[i].team == back.players[i].team);
            CHECK(row.players[i].bot == back.players[i].bot);
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("a server keeps the newest finished matches, not every one, and counts them all") {
    const fs::path dir = fresh_dir("finished");
    const fs::path map = one_second_rink(dir);
    ServerConfig config = config_for("rink.json", 2);
    config.maps = {map};
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.final_pause_s = 0;
    Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    while (server.matches_finished() < Server::kFinishedKept + 10)
        server.tick();
    CHECK(server.finished_matches().size() == Server::kFinishedKept);
    // The newest: the last two are the rooms' latest matches.
    const std::uint32_t last = server.finished_matches().back().match_number;
    CHECK(last >= (Server::kFinishedKept + 10) / 2);
    fs::remove_all(dir);
}

TEST_CASE(
    "the budget removes the oldest finished replays, no more than it must, never one being "
    "written") {
    const fs::path dir = fresh_dir("unit");
    using std::chrono::hours;
    write_file(dir / "a.crpl", 1000, hours(50));
    write_file(dir / "b.crpl", 1000, hours(40));
    write_file(dir / "c.crpl", 1000, hours(30));
    write_file(dir / "d.crpl", 1000, hours(20));
    write_file(dir / "writing.crpl", 5000, hours(60));  // the oldest, but being written
    write_file(dir / "notes.txt", 9000, hours(60));     // not a replay

    SUBCASE("bytes: stops as soon as the directory fits") {
        ReplayBudget budget(dir, {0.0, 7500});
        budget.scan({dir / "writing.crpl"});
        CHECK(budget.bytes_kept() == 4000);
        // 5000 being written + 4000 finished: removing a and b reaches 7000.
        const auto removed = budget.enforce(5000, fs::file_time_type::clock::now());
        REQUIRE(removed.size() == 2);
        CHECK(removed[0] == dir / "a.crpl");
        CHECK(removed[1] == dir / "b.crpl");
        CHECK(fs::exists(dir / "c.crpl"));
        CHECK(fs::exists(dir / "writing.crpl"));
        CHECK(budget.bytes_kept() == 2000);
        CHECK(budget.files_removed() == 2);
        // A newly finished one is the newest: the next to go is c.
        write_file(dir / "e.crpl", 1000, hours(0));
        budget.add_finished(dir / "e.crpl");
        const auto next = budget.enforce(5000, fs::file_time_type::clock::now());
        REQUIRE(next.size() == 1);
        CHECK(next[0] == dir / "c.crpl");
    }
    SUBCASE("days: only what is older than the limit") {
        ReplayBudget budget(dir, {1.5, 0});  // 36 hours
        budget.scan({dir / "writing.crpl"});
        const auto removed = budget.enforce(5000, fs::file_time_type::clock::now());
        REQUIRE(removed.size() == 2);
        CHECK_FALSE(fs::exists(dir / "a.crpl"));
        CHECK_FALSE(fs::exists(dir / "b.crpl"));
        CHECK(fs::exists(dir / "c.crpl"));
        CHECK(fs::exists(dir / "writing.crpl"));
    }
    SUBCASE("everything finished goes when what is being written is over the limit alone") {
        ReplayBudget budget(dir, {0.0, 4000});
        budget.scan({dir / "writing.crpl"});
        CHECK(budget.enforce(5000, fs::file_time_type::clock::now()).size() == 4);
        CHECK(fs::exists(dir / "writing.crpl"));
        CHECK(fs::exists(dir / "notes.txt"));
    }
    fs::remove_all(dir);
}
