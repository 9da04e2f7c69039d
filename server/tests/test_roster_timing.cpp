// Joins and leaves at every boundary of a recorded match: the replay the
// server writes must re-simulate exactly (schemas/PROTOCOL.md, "Roster
// changes"), whichever tick a player comes or goes in.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include <spdlog/fmt/fmt.h>
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

struct RecordedServer {
    explicit RecordedServer(const char* name, bool bots = true, double final_pause_s = 5.0)
        : dir(std::filesystem::temp_directory_path() /
              fmt::format("carom-roster-{}-{}", name, ::getpid())) {
        std::filesystem::remove_all(dir);
        ServerConfig config = config_for("rink.json");
        config.bots = bots;
        config.run_empty_rooms = true;  // bot matches played and recorded for nobody
        config.replay_dir = dir;
        config.timeout_s = 600;
        config.final_pause_s = final_pause_s;
        server = std::make_unique<Server>(config, link, disk, fixed_cookies(), "t");
    }
    ~RecordedServer() { std::filesystem::remove_all(dir); }

    ScriptedClient client(std::uint16_t port) {
        return ScriptedClient(*server, link, endpoint(1, port), port);
    }
    // Ticks until `done` holds after a tick (at most `limit` ticks); the ticks run.
    std::uint64_t tick_until(const std::function<bool()>& done, std::uint64_t limit) {
        for (std::uint64_t n = 1; n <= limit; ++n) {
            server->tick();
            if (done()) return n;
        }
        FAIL("the awaited moment did not come within ", limit, " ticks");
        return limit;
    }
    void ticks(std::uint64_t n) {
        for (std::uint64_t i = 0; i < n; ++i)
            server->tick();
    }
    std::uint64_t goals_so_far() const {
        const game::Match& m = server->room(0).match();
        return m.score(game::Team::left) + m.score(game::Team::right);
    }

    std::filesystem::path dir;
    Link link;
    InlineDiskWork disk;
    std::unique_ptr<Server> server;
};

// Shuts the server down, then checks every replay it wrote with --synctest.
// Returns the replays, in match order.
std::vector<replay::Replay> shutdown_and_verify(RecordedServer& rs) {
    rs.server->shutdown();
    std::vector<replay::Replay> out;
    for (const MatchSummary& s : rs.server->finished_matches()) {
        INFO("replay ", s.replay.string());
        auto read = replay::read_replay(s.replay);
        REQUIRE(read.ok());
        replay::Replay r = *std::move(read);
        REQUIRE(r.footer.has_value());
        CHECK(r.footer->final_tick == s.footer.final_tick);
        CHECK(r.footer->final_hash == s.footer.final_hash);
        const replay::VerifyReport report = replay::verify(r, {.synctest = true, .progress = {}});
        if (report.divergence) {
            std::string fields;
            for (const auto& f : report.divergence->fields)
                fields +=
                    fmt::format("\n  {} {}: {} vs {}", f.entity, f.field, f.recorded, f.simulated);
            FAIL_CHECK("diverged at tick ", report.divergence->tick, ": ", report.divergence->what,
                       fields);
        }
        CHECK_FALSE(report.inconsistency.has_value());
        CHECK(report.ticks == r.last_tick());
        out.push_back(std::move(r));
    }
    return out;
}

// The roster changes a replay holds at `tick`, as "+slot" / "-slot".
std::vector<std::string> roster_at(const replay::Replay& r, std::uint64_t tick) {
    std::vector<std::string> out;
    for (const game::RosterChange& c : r.roster)
        if (c.tick == tick) out.push_back(fmt::format("{}{}", c.join ? '+' : '-', c.slot));
    return out;
}

}  // namespace

TEST_CASE("players who leave in the tick of the shutdown leave a replay that verifies") {
    RecordedServer rs("shutdown");
    std::vector<ScriptedClient> clients;
    for (std::uint16_t p = 0; p < 3; ++p) {
        clients.push_back(rs.client(static_cast<std::uint16_t>(6000 + p)));
        REQUIRE(clients.back().connect(fmt::format("p{}", p))->body_type() == net::Body::Accepted);
    }
    rs.ticks(200);
    for (ScriptedClient& c : clients)
        c.disconnect();  // bots take the slots back
    ScriptedClient late = rs.client(6100);
    REQUIRE(late.connect("late")->body_type() == net::Body::Accepted);
    const auto replays = shutdown_and_verify(rs);
    REQUIRE(replays.size() == 1);
    CHECK(replays[0].footer->final_tick == 200);
    // The changes are in the file, after the last step; no state in it includes them.
    CHECK(roster_at(replays[0], 201).size() == 8);
}

TEST_CASE("a join or leave in the tick of a keyframe, on either side of its step") {
    RecordedServer rs("keyframe");
    ScriptedClient a = rs.client(6000);
    ScriptedClient b = rs.client(6001);
    rs.ticks(replay::kKeyframeTicks - 1);
    REQUIRE(a.connect("a")->body_type() == net::Body::Accepted);  // before the keyframe's step
    rs.ticks(1);
    REQUIRE(b.connect("b")->body_type() == net::Body::Accepted);  // right after it
    a.disconnect();
    rs.ticks(2 * replay::kKeyframeTicks);
    b.disconnect();  // after the step of the second keyframe
    const auto replays = shutdown_and_verify(rs);
    REQUIRE(replays.size() == 1);
    CHECK(roster_at(replays[0], replay::kKeyframeTicks).size() == 2);
    CHECK(roster_at(replays[0], replay::kKeyframeTicks + 1).size() == 4);
}

TEST_CASE("a join or leave in the tick of a goal") {
    // The first run finds the goal's tick; the second, identical up to there,
    // changes the roster just before that step and just after it.
    std::uint64_t goal_tick = 0;
    {
        RecordedServer probe("goal-probe");
        goal_tick = probe.tick_until([&] { return probe.goals_so_far() > 0; }, 60 * 120);
        probe.server->shutdown();
    }
    RecordedServer rs("goal");
    ScriptedClient a = rs.client(6000);
    ScriptedClient b = rs.client(6001);
    rs.ticks(goal_tick - 1);
    REQUIRE(a.connect("a")->body_type() == net::Body::Accepted);
    rs.ticks(1);
    REQUIRE(b.connect("b")->body_type() == net::Body::Accepted);
    rs.ticks(100);
    const auto replays = shutdown_and_verify(rs);
    REQUIRE(replays.size() == 1);
    CHECK(roster_at(replays[0], goal_tick).size() == 2);
    CHECK(roster_at(replays[0], goal_tick + 1).size() == 2);
    const auto& events = replays[0].events;
    CHECK(std::any_of(events.begin(), events.end(), [&](const game::MatchEvent& e) {
        return e.kind == game::MatchEvent::Kind::goal && e.tick == goal_tick;
    }));
}

TEST_CASE("a join or leave in the tick the match ends, and during its final whistle") {
    // Without bots nobody scores: the match ends by time, at a tick known in advance.
    RecordedServer rs("end", /*bots=*/false, /*final_pause_s=*/2.0);
    const std::uint32_t pause = game::kTickRate * 2;
    const std::uint64_t end_tick = rs.server->room(0).match().ticks_left();
    ScriptedClient a = rs.client(6000);
    ScriptedClient b = rs.client(6001);
    REQUIRE(a.connect("a")->body_type() == net::Body::Accepted);
    rs.ticks(end_tick - 1);
    REQUIRE(rs.server->room(0).match().phase() != game::Phase::finished);
    a.disconnect();  // applied before the match's last step
    rs.ticks(1);
    REQUIRE(rs.server->room(0).match().phase() == game::Phase::finished);
    REQUIRE(b.connect("b")->body_type() == net::Body::Accepted);  // during the final whistle
    rs.ticks(pause - 1);
    CHECK(rs.server->finished_matches().empty());  // the whistle lasts the whole pause
    rs.ticks(1);
    REQUIRE(rs.server->finished_matches().size() == 1);
    rs.ticks(10);
    const auto replays = shutdown_and_verify(rs);
    REQUIRE(replays.size() == 2);
    CHECK(replays[0].footer->final_tick == end_tick);
    CHECK(replays[0].header.final_pause_ticks == pause);
    CHECK(replays[0].footer->result == replay::Outcome::draw);
    CHECK(roster_at(replays[0], end_tick) == std::vector<std::string>{"-0"});
    CHECK(roster_at(replays[0], end_tick + 1) == std::vector<std::string>{"+0"});
    REQUIRE(replays[1].header.players.size() == 1);
    CHECK(replays[1].header.players[0].name == "b");
}

TEST_CASE("a join and a leave in the very first tick") {
    RecordedServer rs("first", /*bots=*/false);
    ScriptedClient a = rs.client(6000);
    ScriptedClient b = rs.client(6001);
    REQUIRE(a.connect("a")->body_type() == net::Body::Accepted);
    REQUIRE(b.connect("b")->body_type() == net::Body::Accepted);
    b.disconnect();
    rs.ticks(30);
    const auto replays = shutdown_and_verify(rs);
    REQUIRE(replays.size() == 1);
    CHECK(replays[0].header.players.empty());
    CHECK(roster_at(replays[0], 1) == std::vector<std::string>{"+0", "+2", "-2"});
}

TEST_CASE("a bot steps aside for a player and takes the slot back, in one tick each") {
    RecordedServer rs("bot");
    ScriptedClient a = rs.client(6000);
    rs.ticks(50);
    REQUIRE(a.connect("a")->body_type() == net::Body::Accepted);
    rs.ticks(50);
    a.disconnect();
    rs.ticks(50);
    const auto replays = shutdown_and_verify(rs);
    REQUIRE(replays.size() == 1);
    CHECK(replays[0].header.players.size() == 4);
    CHECK(roster_at(replays[0], 51) == std::vector<std::string>{"-0", "+0"});
    CHECK(roster_at(replays[0], 101) == std::vector<std::string>{"-0", "+0"});
}
