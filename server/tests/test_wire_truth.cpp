// What the wire says about a match (schemas/PROTOCOL.md): event ticks are
// server ticks, the end says a draw, the finished match stays on the wire for
// the final pause, the roster names every slot with its team, and full
// snapshots carry the match's seed and first server tick.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

struct Seen {
    std::uint64_t tick = 0;
    schema::Phase phase = schema::Phase::playing;
    std::uint32_t score_left = 0, score_right = 0;
    std::uint64_t ticks_left = 0;
    std::uint64_t match_seed = 0, match_start_tick = 0;
};

struct SeenEvent {
    schema::EventKind kind;
    std::uint64_t tick;
    bool draw;
    std::uint64_t snapshot_tick;  // of the snapshot that carried it
};

// Every snapshot the client got since the last call (never acked: all full),
// and each event the first time it comes.
void drain(ScriptedClient& c, std::vector<Seen>& seen, std::vector<SeenEvent>& events,
           std::vector<const net::PlayerInfo*>* roster_out = nullptr) {
    while (const net::Packet* p = c.next()) {
        const net::Snapshot* s = p->body_as_Snapshot();
        if (s == nullptr) continue;
        REQUIRE(s->baseline_tick() == 0);
        seen.push_back({s->tick(), s->phase(), s->score_left(), s->score_right(), s->ticks_left(),
                        s->match_seed(), s->match_start_tick()});
        // Events are resent until acknowledged: keep the first sighting of each.
        if (s->events() != nullptr)
            for (const net::MatchEventNet* e : *s->events())
                if (std::none_of(events.begin(), events.end(), [e](const SeenEvent& x) {
                        return x.kind == e->kind() && x.tick == e->tick();
                    }))
                    events.push_back({e->kind(), e->tick(), e->draw(), s->tick()});
        if (roster_out != nullptr && s->players() != nullptr)
            for (const net::PlayerInfo* info : *s->players())
                roster_out->push_back(info);
    }
}

}  // namespace

TEST_CASE("a drawn match ends on the wire as a draw, then stays finished for the final pause") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.timeout_s = 600;
    config.final_pause_s = 1.0;
    Server server(config, link, fixed_cookies(), "t");
    const std::uint64_t end_tick = server.room(0).match().ticks_left();  // nobody scores
    const std::uint64_t pause = config.tick_rate_hz;
    const std::uint64_t first_seed = server.room(0).seed();
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);

    std::vector<Seen> seen;
    std::vector<SeenEvent> events;
    for (std::uint64_t t = 0; t < end_tick + pause + 10; ++t) {
        server.tick();
        drain(c, seen, events);
    }
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == schema::EventKind::end);
    CHECK(events[0].draw);
    CHECK(events[0].tick == end_tick);  // the server tick of the step (match 1 began at 0)
    CHECK(events[0].snapshot_tick >= end_tick);

    std::size_t finished = 0;
    for (const Seen& s : seen) {
        CAPTURE(s.tick);
        if (s.tick < end_tick) {
            CHECK(s.phase == schema::Phase::playing);
        } else if (s.tick <= end_tick + pause) {
            CHECK(s.phase == schema::Phase::finished);
            CHECK(s.score_left == 0);
            CHECK(s.score_right == 0);
            CHECK(s.match_seed == first_seed);
            CHECK(s.match_start_tick == 0);
            ++finished;
        } else {
            CHECK(s.phase == schema::Phase::playing);
            CHECK(s.match_start_tick == end_tick + pause);
            CHECK(s.match_seed == server.room(0).seed());
            CHECK(s.match_seed != first_seed);
            CHECK(s.ticks_left == end_tick - (s.tick - s.match_start_tick));
        }
    }
    // At 30 snapshots a second, a second of final whistle is about 30 of them.
    CHECK(finished >= pause / 2 - 1);
}

TEST_CASE("the roster lists every slot with its team") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana", -1, /*spectator=*/true)->body_type() == net::Body::Accepted);
    server.tick();
    server.tick();
    const net::Packet* p = c.newest(net::Body::Snapshot);
    REQUIRE(p != nullptr);
    const auto* players = p->body_as_Snapshot()->players();
    REQUIRE(players != nullptr);
    const game::Match& m = server.room(0).match();
    REQUIRE(players->size() == m.slot_count());
    for (const net::PlayerInfo* info : *players) {
        CAPTURE(info->slot());
        CHECK(info->team() == static_cast<schema::Team>(m.team_of(info->slot())));
        CHECK(info->active());
        CHECK(info->bot());
    }
    CHECK(players->Get(0)->team() == schema::Team::left);
    CHECK(players->Get(m.slot_count() - 1)->team() == schema::Team::right);
}

TEST_CASE("goal events of a later match carry the server tick of their step") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.timeout_s = 600;
    config.final_pause_s = 0.5;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("watcher", -1, /*spectator=*/true)->body_type() == net::Body::Accepted);

    std::vector<Seen> seen;
    std::vector<SeenEvent> events;
    std::vector<std::uint64_t> goal_ticks;  // server ticks whose step scored, in match 2
    const std::uint64_t limit = 2 * 60 * 200;
    for (std::uint64_t t = 0; t < limit && goal_ticks.size() < 2; ++t) {
        const Room& room = server.room(0);
        const std::uint32_t before =
            room.match().score(game::Team::left) + room.match().score(game::Team::right);
        const std::uint32_t match = room.match_number();
        server.tick();
        const std::uint32_t after =
            room.match().score(game::Team::left) + room.match().score(game::Team::right);
        if (match == 2 && room.match_number() == 2 && after > before)
            goal_ticks.push_back(server.current_tick());
        drain(c, seen, events);
    }
    REQUIRE(goal_ticks.size() == 2);
    // The second goal's event goes out with the client's next snapshot, up to
    // a snapshot interval later (client ids are random, so is its tick parity).
    for (std::uint32_t i = 0; i < config.tick_rate_hz / config.snapshot_rate_hz; ++i) {
        server.tick();
        drain(c, seen, events);
    }
    std::set<std::uint64_t> wire_goal_ticks;
    for (const SeenEvent& e : events)
        if (e.kind == schema::EventKind::goal && e.tick >= goal_ticks[0] && e.tick <= goal_ticks[1])
            wire_goal_ticks.insert(e.tick);
    CHECK(std::vector<std::uint64_t>(wire_goal_ticks.begin(), wire_goal_ticks.end()) == goal_ticks);
    // The match's own tick is far smaller: match 2 began after the whole of match 1.
    CHECK(server.room(0).match_start_tick() > 0);
    CHECK(goal_ticks[0] > server.room(0).match_start_tick());
}

TEST_CASE("an event is in every snapshot until one carrying it is acknowledged") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.timeout_s = 600;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("watcher", -1, /*spectator=*/true)->body_type() == net::Body::Accepted);

    // (snapshot tick, the goal ticks it carries), for every snapshot.
    std::vector<std::pair<std::uint64_t, std::vector<std::uint64_t>>> snapshots;
    const auto drain_goals = [&] {
        while (const net::Packet* p = c.next()) {
            const net::Snapshot* s = p->body_as_Snapshot();
            if (s == nullptr) continue;
            std::vector<std::uint64_t> goals;
            if (s->events() != nullptr)
                for (const net::MatchEventNet* e : *s->events())
                    if (e->kind() == schema::EventKind::goal) goals.push_back(e->tick());
            snapshots.push_back({s->tick(), goals});
        }
    };
    std::optional<std::uint64_t> goal;
    for (std::uint64_t t = 0; t < 60 * 600 && !goal; ++t) {
        server.tick();
        drain_goals();
        if (!snapshots.empty() && !snapshots.back().second.empty())
            goal = snapshots.back().second.front();
    }
    REQUIRE(goal.has_value());
    // Unacknowledged: the next snapshots all carry it again.
    const std::size_t first = snapshots.size() - 1;
    while (snapshots.size() < first + 4) {
        server.tick();
        drain_goals();
    }
    for (std::size_t i = first; i < snapshots.size(); ++i) {
        CAPTURE(snapshots[i].first);
        CHECK(std::count(snapshots[i].second.begin(), snapshots[i].second.end(), *goal) == 1);
    }
    // Acknowledging a snapshot that carried it ends the resending.
    c.input({}, snapshots.back().first);
    const std::size_t acked = snapshots.size();
    while (snapshots.size() < acked + 3) {
        server.tick();
        drain_goals();
    }
    for (std::size_t i = acked; i < snapshots.size(); ++i) {
        CAPTURE(snapshots[i].first);
        CHECK(std::count(snapshots[i].second.begin(), snapshots[i].second.end(), *goal) == 0);
    }
}

TEST_CASE("a session taken over from another address tells the old address why") {
    Link link;
    Server server(config_for("rink.json"), link, fixed_cookies(), "t");
    ScriptedClient first(server, link, endpoint(1, 5000), /*token=*/77);
    REQUIRE(first.connect("ana")->body_type() == net::Body::Accepted);
    server.tick();
    first.clear();
    ScriptedClient second(server, link, endpoint(2, 6000), /*token=*/77);
    REQUIRE(second.connect("ana")->body_type() == net::Body::Accepted);
    const net::Packet* bye = first.newest(net::Body::Disconnect);
    REQUIRE(bye != nullptr);
    CHECK(bye->body_as_Disconnect()->reason() == net::DisconnectReason::kicked);
    CHECK(server.session_count() == 1);
}
