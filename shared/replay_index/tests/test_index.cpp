// The replay index (index.hpp) over a directory of a few hundred recorded
// matches: find answers what the files say, and sync repairs what a crash
// between a file and its row left.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <set>

#include "carom/replay/reader.hpp"
#include "carom/replay_index/index.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay_index;
namespace fs = std::filesystem;

namespace {

struct Recorded {
    std::string file, map;
    std::set<std::string> players;
    bool old = false;  // written "ten days ago"
};

// 300 short matches on two maps, each with two of eight player names (one
// joining late), a third of them ten days old.
std::vector<Recorded> record_directory(const fs::path& dir) {
    std::vector<Recorded> out;
    const char* names[] = {"ana", "bo", "cy", "dee", "eli", "fay", "gus", "hal"};
    for (int i = 0; i < 300; ++i) {
        Recorded r;
        r.file = "room" + std::to_string(i % 4) + "-t-m" + std::to_string(i) + ".crpl";
        game::Map map = game::test::small_map(2);
        map.name = i % 3 == 0 ? "rink" : "arena";
        r.map = map.name;
        const std::string a = names[i % 8], b = names[(i / 8) % 8];
        r.players = {a, b};
        replay::test::RecordedMatch rec(dir / r.file, map, static_cast<std::uint64_t>(i),
                                        {{0, a, false}});
        for (int t = 0; t < 30; ++t) {
            if (t == 10) rec.join(2, b, false);
            rec.step_bots();
        }
        rec.finish();
        r.old = i % 3 == 1;
        if (r.old)
            fs::last_write_time(dir / r.file,
                                fs::file_time_type::clock::now() - std::chrono::hours(240));
        out.push_back(r);
    }
    return out;
}

std::set<std::string> files_of(const std::vector<MatchRow>& rows) {
    std::set<std::string> out;
    for (const MatchRow& r : rows)
        out.insert(r.file);
    return out;
}

}  // namespace

TEST_CASE("find answers from the index what a directory of 300 replays says") {
    const fs::path dir = fs::temp_directory_path() / ("carom-index-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::vector<Recorded> recorded = record_directory(dir);
    auto index = Index::open(dir);
    REQUIRE(index.ok());
    const auto synced = index->sync();
    REQUIRE(synced.ok());
    CHECK(synced->added == 300);
    CHECK(synced->unreadable == 0);

    const auto expect = [&](auto keep) {
        std::set<std::string> out;
        for (const Recorded& r : recorded)
            if (keep(r)) out.insert(r.file);
        return out;
    };
    const auto found = [&](const FindQuery& q) {
        const auto rows = index->find(q);
        REQUIRE(rows.ok());
        return files_of(*rows);
    };
    CHECK(found({}).size() == 300);
    CHECK(found({"cy", std::nullopt, std::nullopt}) ==
          expect([](const Recorded& r) { return r.players.contains("cy"); }));
    CHECK(found({std::nullopt, "rink", std::nullopt}) ==
          expect([](const Recorded& r) { return r.map == "rink"; }));
    // Since two days ago: the recent ones only.
    const auto since = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() -
                                                            std::chrono::hours(48));
    char iso[32];
    std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&since));
    CHECK(found({"hal", "arena", std::string(iso)}) == expect([](const Recorded& r) {
              return r.players.contains("hal") && r.map == "arena" && !r.old;
          }));
    // A row says what its file says.
    const auto one = index->find({std::nullopt, std::nullopt, std::nullopt});
    REQUIRE(one.ok());
    const MatchRow& row = one->front();
    CHECK(row.ticks == 30);
    CHECK(row.players.size() == 2);
    CHECK(row.final_hash.size() == 16);
    CHECK(row.format_version == replay::kFormatVersion);
    REQUIRE(row.room.has_value());
    CHECK(*row.room == static_cast<std::uint32_t>(row.file[4] - '0'));  // room<R>-...
    // Only a server's name says a room.
    const auto read = replay::read_replay(dir / row.file);
    REQUIRE(read.ok());
    for (const auto& [file, room] :
         std::vector<std::pair<std::string, std::optional<std::uint32_t>>>{
             {"room12-x.crpl", 12},
             {"ana-vs-bo.crpl", std::nullopt},
             {"room-1.crpl", std::nullopt},
             {"room7.crpl", std::nullopt},
             {"room99999999999-x.crpl", std::nullopt}}) {
        const std::string& name = file;  // clang 14: a lambda (CAPTURE) cannot take a binding
        CAPTURE(name);
        CHECK(row_of(dir / file, *read).room == room);
    }

    SUBCASE("a crash between a file and its row loses nothing: sync repairs both ways") {
        REQUIRE(index->remove(dir / recorded[5].file).ok());  // a file written, its row not
        fs::remove(dir / recorded[6].file);                   // a file removed, its row not
        const auto repaired = index->sync();
        REQUIRE(repaired.ok());
        CHECK(repaired->added == 1);
        CHECK(repaired->removed == 1);
        const auto all = found({});
        CHECK(all.contains(recorded[5].file));
        CHECK_FALSE(all.contains(recorded[6].file));
    }
    fs::remove_all(dir);
}

// Two servers may share one replay directory (two units of one service): both
// open the index at once and add rows at once; every row must land.
TEST_CASE("two processes open and write one index at once and lose no row") {
    const fs::path dir =
        fs::temp_directory_path() / ("carom-index-two-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    constexpr int kRows = 300;
    const auto writer = [&](const std::string& prefix) -> std::string {
        auto index = Index::open(dir);
        if (!index) return "open: " + index.error().message;
        for (int i = 0; i < kRows; ++i) {
            MatchRow row;
            row.file = prefix + std::to_string(i) + ".crpl";
            row.map = "rink";
            row.players = {{0, "ana", "left", false}, {1, "bo", "right", true}};
            if (auto added = index->add(row); !added) return "add: " + added.error().message;
        }
        return "";
    };
    // Several rounds: the race is for the first open and for each commit.
    for (int round = 0; round < 5; ++round) {
        CAPTURE(round);
        fs::remove(dir / kIndexFileName);
        fs::remove(dir / (std::string(kIndexFileName) + "-wal"));
        fs::remove(dir / (std::string(kIndexFileName) + "-shm"));
        int pipe_fds[2];
        REQUIRE(pipe(pipe_fds) == 0);
        const pid_t child = fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            close(pipe_fds[0]);
            const std::string error = writer("b");
            [[maybe_unused]] const auto n = write(pipe_fds[1], error.data(), error.size());
            _exit(error.empty() ? 0 : 1);
        }
        close(pipe_fds[1]);
        const std::string mine = writer("a");
        int status = 0;
        REQUIRE(waitpid(child, &status, 0) == child);
        char text[512] = {};
        [[maybe_unused]] const auto n = read(pipe_fds[0], text, sizeof text - 1);
        close(pipe_fds[0]);
        CHECK(mine == "");
        CHECK(std::string(text) == "");
        CHECK(WIFEXITED(status));
        auto index = Index::open(dir);
        REQUIRE(index.ok());
        const auto rows = index->find({});
        REQUIRE(rows.ok());
        CHECK(rows->size() == 2 * kRows);
    }
    fs::remove_all(dir);
}
