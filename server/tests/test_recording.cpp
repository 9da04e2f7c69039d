#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <spdlog/fmt/fmt.h>
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

std::filesystem::path fresh_dir(const char* name) {
    const auto dir = std::filesystem::temp_directory_path() /
                     fmt::format("carom-server-test-{}-{}", name, ::getpid());
    std::filesystem::remove_all(dir);
    return dir;
}

replay::Replay read(const std::filesystem::path& file) {
    auto r = replay::read_replay(file);
    REQUIRE(r.ok());
    return *std::move(r);
}

}  // namespace

TEST_CASE(
    "every match is recorded, and on shutdown the replay verifies to the hash the server reports") {
    const auto dir = fresh_dir("record");
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.replay_dir = dir;
    config.timeout_s = 60;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    for (std::uint32_t seq = 1; seq <= 600; ++seq) {
        c.input(seq, game::Input::move(static_cast<std::uint8_t>(seq / 40), seq % 50 == 0).bits());
        server.tick();
        if (seq == 300) c.disconnect();  // a leave mid-match, a bot takes the slot
    }
    const auto summaries = server.shutdown();
    REQUIRE(summaries.size() == 1);
    const MatchSummary& s = summaries.front();
    CHECK(s.footer.final_tick == 600);
    REQUIRE(std::filesystem::exists(s.replay));

    const replay::Replay r = read(s.replay);
    REQUIRE(r.footer.has_value());
    CHECK(r.footer->final_hash == s.footer.final_hash);
    const replay::VerifyReport report = replay::verify(r, {.synctest = true, .progress = {}});
    CHECK_FALSE(report.divergence.has_value());
    CHECK_FALSE(report.inconsistency.has_value());
    CHECK(report.ticks == 600);
    std::filesystem::remove_all(dir);
}

TEST_CASE("a room whose match ends records it and starts the next") {
    const auto dir = fresh_dir("restart");
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.run_empty_rooms = true;  // bot matches played and recorded for nobody
    config.replay_dir = dir;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    const std::uint64_t limit = server.room(0).match().ticks_left() + 60 * 60;
    for (std::uint64_t t = 0; t < limit && server.finished_matches().empty(); ++t)
        server.tick();
    REQUIRE(server.finished_matches().size() == 1);
    CHECK(server.room(0).match_number() == 2);
    CHECK(server.room(0).match().tick() <= 1);
    const replay::Replay r = read(server.finished_matches().front().replay);
    REQUIRE(r.footer.has_value());
    CHECK(r.footer->result != replay::Outcome::unfinished);
    CHECK_FALSE(replay::verify(r).divergence.has_value());
    server.shutdown();
    std::filesystem::remove_all(dir);
}

TEST_CASE("the same inputs give the same replay, bit for bit, however often it runs") {
    const auto dir = fresh_dir("same");
    std::vector<std::vector<std::uint8_t>> files;
    for (int run = 0; run < 2; ++run) {
        Link link;
        ServerConfig config = config_for("arena.json");
        config.bots = true;
        config.run_empty_rooms = true;  // bot matches played and recorded for nobody
        config.replay_dir = dir / std::to_string(run);
        InlineDiskWork disk;
        Server server(config, link, disk, fixed_cookies(), "t");
        ScriptedClient c(server, link, endpoint(1, 5000));
        REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
        for (std::uint32_t seq = 1; seq <= 300; ++seq) {
            c.input(seq, game::Input::move(static_cast<std::uint8_t>(seq % 16)).bits());
            server.tick();
        }
        const auto summaries = server.shutdown();
        REQUIRE(summaries.size() == 1);
        std::ifstream in(summaries.front().replay, std::ios::binary);
        files.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    CHECK(files[0].size() > 0);
    CHECK(files[0] == files[1]);
    std::filesystem::remove_all(dir);
}
