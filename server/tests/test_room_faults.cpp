// One room's problem is never the process's (room.hpp): a replay that cannot
// be written stops recording, not the match; an exception in one room's step
// pauses that room while the others play on. Each fault is injected through
// the real Server over the in-process link.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <spdlog/fmt/fmt.h>
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"
#include "carom/replay/writer.hpp"

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

class TempDir {
  public:
    explicit TempDir(const char* name)
        : path_(std::filesystem::temp_directory_path() /
                fmt::format("carom-room-faults-{}-{}", name, ::getpid())) {
        std::filesystem::remove_all(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path_, ec);
        std::filesystem::remove_all(path_.string() + ".moved", ec);
    }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// Clears the injected write fault however the test ends.
struct FaultGuard {
    ~FaultGuard() { replay::set_write_fault({}); }
};

// The process may write files up to `bytes` while it lives; restored however the test ends.
class FileSizeLimit {
  public:
    explicit FileSizeLimit(std::uintmax_t bytes) {
        REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_) == 0);
        old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = old_;
        small.rlim_cur = static_cast<rlim_t>(bytes);
        REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, old_handler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

  private:
    rlimit old_{};
    void (*old_handler_)(int) = SIG_DFL;
};

std::vector<std::filesystem::path> replays_in(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".crpl") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

replay::Replay read(const std::filesystem::path& file) {
    auto r = replay::read_replay(file);
    REQUIRE(r.ok());
    return *std::move(r);
}

// A replay's ticks verify as far as the file goes.
void check_verifies(const std::filesystem::path& file, std::uint64_t ticks, bool footer) {
    CAPTURE(file.string());
    const replay::Replay r = read(file);
    CHECK(r.footer.has_value() == footer);
    CHECK(r.last_tick() == ticks);
    const replay::VerifyReport report = replay::verify(r);
    CHECK_FALSE(report.divergence.has_value());
    CHECK_FALSE(report.inconsistency.has_value());
    CHECK(report.ticks == ticks);
}

// Whether the client still gets the match (a FullState or updates).
bool update_arrives(Server& server, Link& link, ScriptedClient& c) {
    c.clear();
    for (int i = 0; i < 4; ++i) {
        c.keep_alive();
        server.tick();
    }
    return std::any_of(link.inbox[c.at()].begin(), link.inbox[c.at()].end(),
                       [&](const Datagram& sealed) {
                           const Datagram d = c.peek(sealed);
                           return d.update() != nullptr ||
                                  (d.packet() != nullptr && d.packet()->body_as_FullState());
                       });
}

}  // namespace

TEST_CASE("a write error in one room's replay: its match goes on unrecorded, the others record") {
    TempDir dir("write-error");
    FaultGuard guard;
    Link link;
    ServerConfig config = config_for("rink.json", 2);
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.replay_dir = dir.path();
    config.timeout_s = 60;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana", 1)->body_type() == net::Body::Accepted);
    for (int t = 0; t < 100; ++t)
        server.tick();
    // From now on every write of room 1's replay fails as a full disk would.
    replay::set_write_fault([](const std::filesystem::path& p) {
        return p.filename().string().starts_with("room01") ? ENOSPC : 0;
    });
    for (int t = 0; t < 500; ++t) {
        c.keep_alive();
        REQUIRE_NOTHROW(server.tick());
    }
    CHECK(server.stats().replay_write_errors == 1);
    CHECK(server.stats().rooms_failed == 0);
    CHECK(server.room(1).match().tick() == 600);  // the match went on
    CHECK(server.room(0).match().tick() == 600);
    CHECK(server.session_count() == 1);  // the client was not dropped
    CHECK(update_arrives(server, link, c));
    replay::set_write_fault({});
    const auto summaries = server.shutdown();
    REQUIRE(summaries.size() == 2);
    CHECK(summaries[0].replay.filename().string().starts_with("room00"));
    check_verifies(summaries[0].replay, 604, true);  // room 0 recorded every tick
    CHECK(summaries[1].replay.empty());              // room 1 stopped recording
    const auto files = replays_in(dir.path());
    REQUIRE(files.size() == 2);
    check_verifies(files[1], 60, false);  // what room 1 wrote before the fault still verifies
}

TEST_CASE(
    "an unwritable replay directory: the next match plays unrecorded, the one after records") {
    TempDir dir("unwritable");
    const auto moved = dir.path().string() + ".moved";
    std::filesystem::remove_all(moved);
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.replay_dir = dir.path();
    config.final_pause_s = 0;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    for (int t = 0; t < 100; ++t)
        server.tick();
    // Mid-match, the directory becomes unwritable: read-only for an ordinary
    // user; root writes through permissions, so for root it is replaced by a file.
    const bool root = ::geteuid() == 0;
    if (root) {
        std::filesystem::rename(dir.path(), moved);
        std::ofstream(dir.path()) << "not a directory\n";
    } else {
        std::filesystem::permissions(
            dir.path(), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    }
    const auto run_to_match = [&](std::uint32_t number) {
        const std::uint64_t limit = server.room(0).match().ticks_left() + 600;
        for (std::uint64_t t = 0; t < limit && server.room(0).match_number() < number; ++t) {
            c.clear();
            c.keep_alive();
            REQUIRE_NOTHROW(server.tick());
        }
        REQUIRE(server.room(0).match_number() == number);
    };
    run_to_match(2);
    CHECK(server.stats().replay_write_errors == 1);
    for (int t = 0; t < 100; ++t) {
        c.keep_alive();
        server.tick();
    }
    CHECK(server.room(0).match().tick() == 100);  // match 2 plays, unrecorded
    CHECK(server.session_count() == 1);
    CHECK(update_arrives(server, link, c));
    if (root) {
        std::filesystem::remove(dir.path());
        std::filesystem::rename(moved, dir.path());
    } else {
        std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_all);
    }
    run_to_match(3);
    CHECK(server.stats().replay_write_errors == 1);
    const auto& finished = server.finished_matches();
    REQUIRE(finished.size() == 2);
    CHECK_FALSE(finished[0].replay.empty());  // match 1 kept its open file
    CHECK(finished[1].replay.empty());        // match 2 was not recorded
    for (int t = 0; t < 100; ++t)
        server.tick();
    const auto summaries = server.shutdown();
    REQUIRE(summaries.size() == 1);
    REQUIRE_FALSE(summaries[0].replay.empty());  // match 3 records again
    check_verifies(summaries[0].replay, summaries[0].footer.final_tick, true);
    check_verifies(finished[0].replay, finished[0].footer.final_tick, true);
    CHECK(replays_in(dir.path()).size() == 2);
}

TEST_CASE("a replay file that reaches the size the system allows: recording stops, play goes on") {
    TempDir dir("file-size");
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.replay_dir = dir.path();
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    for (int t = 0; t < 130; ++t)
        server.tick();
    const auto files = replays_in(dir.path());
    REQUIRE(files.size() == 1);
    const auto size = std::filesystem::file_size(files[0]);
    {
        // Writes past the limit fail with EFBIG (SIGXFSZ ignored): a small disk, full.
        FileSizeLimit limit(size + 1000);
        for (int t = 0; t < 470; ++t)
            REQUIRE_NOTHROW(server.tick());
    }
    CHECK(server.stats().replay_write_errors == 1);
    CHECK(server.room(0).match().tick() == 600);
    const auto summaries = server.shutdown();
    REQUIRE(summaries.size() == 1);
    CHECK(summaries[0].replay.empty());
    const replay::Replay r = read(files[0]);
    CHECK_FALSE(r.footer.has_value());
    CHECK(r.last_tick() >= 120);
    CHECK(r.last_tick() < 600);
    CHECK(std::filesystem::file_size(files[0]) <= size + 1000);
    check_verifies(files[0], r.last_tick(), false);
}

TEST_CASE("an exception in one room's step pauses that room, the others play on") {
    TempDir dir("step-fault");
    Link link;
    ServerConfig config = config_for("rink.json", 3);
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.replay_dir = dir.path();
    config.timeout_s = 60;
    config.room_step_fault = [](std::uint32_t room, std::uint64_t tick) {
        if (room == 1 && tick == 50) throw std::runtime_error("injected step fault");
    };
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana", 1)->body_type() == net::Body::Accepted);
    // The client keeps its copy of room 1's match, across the fault too.
    c.keep_copy(map_named("rink.json"));
    for (int t = 0; t < 300; ++t) {
        if (c.copy().holds()) {
            c.ack(c.copy().tick());
        } else {
            c.keep_alive();
        }
        REQUIRE_NOTHROW(server.tick());
        c.take();
    }
    CHECK(c.failures.empty());
    CHECK(c.full_states == 2);  // at the start, and when the fault replaced the state
    CHECK(c.copy().match().state_hash() == server.room(1).state_hash());
    CHECK(c.copy().match().tick() == 49);
    CHECK(server.stats().rooms_failed == 1);
    CHECK(server.room(1).failed());
    CHECK_FALSE(server.room(0).failed());
    CHECK(server.room(1).match().tick() == 49);  // paused at its last good tick
    CHECK(server.room(0).match().tick() == 300);
    CHECK(server.room(2).match().tick() == 300);
    CHECK(server.session_count() == 1);
    CHECK(update_arrives(server, link, c));
    const auto summaries = server.shutdown();
    std::vector<std::filesystem::path> recorded;
    for (const MatchSummary& s : summaries)
        if (!s.replay.empty()) recorded.push_back(s.replay);
    REQUIRE(recorded.size() == 2);  // rooms 0 and 2 finished their replays
    for (const auto& file : recorded)
        check_verifies(file, 304, true);
    // The paused room's file holds every tick before the fault, and no footer.
    const auto files = replays_in(dir.path());
    REQUIRE(files.size() == 3);
    check_verifies(files[1], 49, false);
}
