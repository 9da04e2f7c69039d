// Replay files are never overwritten (room.hpp, writer.hpp): each is created
// exclusively, under a name unique to the room object that writes it.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include <spdlog/fmt/fmt.h>
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

TEST_CASE("two servers with the same run id on one directory each keep their replay") {
    const auto dir =
        std::filesystem::temp_directory_path() / fmt::format("carom-replay-names-{}", ::getpid());
    std::filesystem::remove_all(dir);
    Link link_a, link_b;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.replay_dir = dir;
    InlineDiskWork disk;
    Server a(config, link_a, disk, fixed_cookies(), "same-second");
    config.seed = 2;  // another match, so the two files differ
    Server b(config, link_b, disk, fixed_cookies(), "same-second");
    for (int t = 0; t < 200; ++t) {
        a.tick();
        if (t < 150) b.tick();
    }
    const auto sa = a.shutdown();
    const auto sb = b.shutdown();
    REQUIRE(sa.size() == 1);
    REQUIRE(sb.size() == 1);
    CHECK(sa[0].replay != sb[0].replay);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        files += e.path().extension() == ".crpl";
    CHECK(files == 2);
    for (const auto& expected : {std::pair{sa[0], 200}, std::pair{sb[0], 150}}) {
        // Named, not structured bindings: CAPTURE's lambda cannot take those in clang 14.
        const MatchSummary& s = expected.first;
        const int ticks = expected.second;
        CAPTURE(s.replay.string());
        auto r = replay::read_replay(s.replay);
        REQUIRE(r.ok());
        const replay::Replay& replay = *r;
        REQUIRE(replay.footer.has_value());
        CHECK(replay.footer->final_hash == s.footer.final_hash);
        CHECK(replay.last_tick() == static_cast<std::uint64_t>(ticks));
        const replay::VerifyReport report = replay::verify(replay);
        CHECK_FALSE(report.divergence.has_value());
        CHECK_FALSE(report.inconsistency.has_value());
    }
    CHECK(a.stats().replay_write_errors == 0);
    CHECK(b.stats().replay_write_errors == 0);
    std::filesystem::remove_all(dir);
}
