// verify (verify.hpp) checks the events a file claims against the events the
// re-simulation makes: goals (team, puck, scorer, own goal), kick-offs and
// the end (winner or draw).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>

#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"

using namespace carom;
using namespace carom::replay;

namespace {

const std::filesystem::path kCorpus = CAROM_CORPUS_DIR;

Replay corpus(const char* name) {
    auto r = read_replay(kCorpus / name);
    REQUIRE(r.ok());
    return *std::move(r);
}

std::string divergence_of(const Replay& r) {
    const VerifyReport report = verify(r);
    REQUIRE(report.divergence.has_value());
    return report.divergence->what;
}

using Kind = game::MatchEvent::Kind;

}  // namespace

TEST_CASE("an own goal claimed as a goal by the defender is a divergence at its tick") {
    Replay r = corpus("duel-rink.crpl");
    auto own = std::find_if(r.events.begin(), r.events.end(),
                            [](const game::MatchEvent& e) { return e.own_goal_by.has_value(); });
    REQUIRE(own != r.events.end());
    own->scorer = std::exchange(own->own_goal_by, std::nullopt);
    const VerifyReport report = verify(r);
    REQUIRE(report.divergence.has_value());
    CHECK(report.divergence->tick == own->tick);
    CHECK(report.divergence->what.find("event differs") == 0);
    CHECK(report.divergence->recorded_hash == report.divergence->simulated_hash);
}

TEST_CASE("a win claimed for a draw, a goal that never happened, an event past the end") {
    Replay r = corpus("duel-rink.crpl");
    auto end = std::find_if(r.events.begin(), r.events.end(),
                            [](const game::MatchEvent& e) { return e.kind == Kind::end; });
    REQUIRE(end != r.events.end());
    {
        Replay changed = r;
        changed.events[static_cast<std::size_t>(end - r.events.begin())].draw = !end->draw;
        CHECK(divergence_of(changed).find("event differs") == 0);
    }
    {
        Replay changed = r;
        changed.events.insert(changed.events.begin(),
                              {Kind::goal, 5, game::Team::left, 0, std::nullopt, false});
        CHECK(divergence_of(changed) ==
              "event differs: the file says goal for left (puck 0, scorer none, own goal by "
              "none), the re-simulation nothing");
    }
    {
        Replay changed = r;
        changed.events.push_back(
            {Kind::kickoff, r.last_tick() + 1, game::Team::left, 0, std::nullopt, false});
        CHECK(divergence_of(changed).find("that no step made") != std::string::npos);
    }
    CHECK_FALSE(verify(r).divergence.has_value());
}

TEST_CASE("in every corpus match a player's goals are the goal events that credit him") {
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
        if (entry.path().extension() != ".crpl") continue;
        CAPTURE(entry.path().string());
        ++files;
        const Replay r = corpus(entry.path().filename().c_str());
        REQUIRE(r.header.core_version >= 2);
        const game::Match match(r.header.map, r.header.seed);
        // A join or leave at tick T (before the step of T) starts the slot's count again.
        std::map<game::Slot, std::uint32_t> credited;
        std::size_t next_change = 0;
        for (const game::MatchEvent& e : r.events) {
            for (; next_change < r.roster.size() && r.roster[next_change].tick <= e.tick;
                 ++next_change)
                credited[r.roster[next_change].slot] = 0;
            if (e.kind != Kind::goal) continue;
            if (e.scorer) CHECK(match.team_of(*e.scorer) == e.team);
            if (e.own_goal_by) CHECK(match.team_of(*e.own_goal_by) != e.team);
            CHECK_FALSE((e.scorer && e.own_goal_by));
            if (e.scorer) ++credited[*e.scorer];
        }
        for (; next_change < r.roster.size() && r.roster[next_change].tick <= r.last_tick();
             ++next_change)
            credited[r.roster[next_change].slot] = 0;
        REQUIRE_FALSE(r.keyframes.empty());
        const game::MatchState& last = r.keyframes.back().state;
        REQUIRE(last.tick == r.last_tick());
        for (game::Slot s = 0; s < last.players.size(); ++s) {
            CAPTURE(s);
            CHECK(last.players[s].goals == credited[s]);
        }
    }
    CHECK(files >= 6);
}
