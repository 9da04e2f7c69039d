// What the wire brings a client's copy of the match (schemas/PROTOCOL.md):
// event ticks are server ticks, the end says a draw, the finished match
// stays on the wire for the final pause and the next one starts within an
// update, the roster names every slot with its team and its bots.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
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
    game::Phase phase = game::Phase::playing;
    std::array<std::uint32_t, 2> score{};
    std::uint64_t ticks_left = 0;
    std::uint64_t match_seed = 0, match_start_tick = 0;
};

// Takes what the server sent into the client's copy, acknowledges it, and
// notes the copy's state and the events of its steps.
void follow(ScriptedClient& c, std::vector<Seen>& seen, std::vector<game::MatchEvent>& events) {
    if (c.take() == 0) return;
    const client::Replica& r = c.copy();
    const game::Match& m = r.match();
    seen.push_back({r.tick(),
                    m.phase(),
                    {m.score(game::Team::left), m.score(game::Team::right)},
                    m.ticks_left(),
                    r.match_seed(),
                    r.match_start_tick()});
    for (const game::MatchEvent& e : c.copy().take_events())
        events.push_back(e);
    c.ack(r.tick());
}

}  // namespace

TEST_CASE("a drawn match ends on the wire as a draw, then stays finished for the final pause") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.timeout_s = 600;
    config.final_pause_s = 1.0;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);       // the room wakes
    const std::uint64_t end_tick = server.room(0).match().ticks_left();  // nobody scores
    const std::uint64_t pause = game::kTickRate;
    const std::uint64_t first_seed = server.room(0).seed();
    c.keep_copy(map_named("rink.json"));

    std::vector<Seen> seen;
    std::vector<game::MatchEvent> events;
    for (std::uint64_t t = 0; t < end_tick + pause + 10; ++t) {
        server.tick();
        follow(c, seen, events);
        REQUIRE(c.copy().match().state_hash() == server.room(0).state_hash());
    }
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == game::MatchEvent::Kind::end);
    CHECK(events[0].draw);
    CHECK(events[0].tick == end_tick);  // the server tick of the step (match 1 began at 0)

    std::size_t finished = 0;
    for (const Seen& s : seen) {
        CAPTURE(s.tick);
        if (s.tick < end_tick) {
            CHECK(s.phase == game::Phase::playing);
        } else if (s.tick < end_tick + pause) {
            CHECK(s.phase == game::Phase::finished);
            CHECK(s.score == std::array<std::uint32_t, 2>{0, 0});
            CHECK(s.match_seed == first_seed);
            CHECK(s.match_start_tick == 0);
            ++finished;
        } else {
            // The new match started in the update's ticks: the copy went with it.
            CHECK(s.phase == game::Phase::playing);
            CHECK(s.match_start_tick == end_tick + pause);
            CHECK(s.match_seed == server.room(0).seed());
            CHECK(s.match_seed != first_seed);
            CHECK(s.ticks_left == end_tick - (s.tick - s.match_start_tick));
        }
    }
    CHECK(finished == pause);  // a state every tick
    CHECK(c.failures.empty());
    CHECK(c.full_states == 1);
}

TEST_CASE("the client's copy names every slot, its team and whether a bot plays it") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana", -1, /*spectator=*/true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("rink.json"));
    server.tick();
    REQUIRE(c.take() == 1);
    const game::Match& m = server.room(0).match();
    const game::Match& copy = c.copy().match();
    REQUIRE(copy.slot_count() == m.slot_count());
    for (game::Slot s = 0; s < m.slot_count(); ++s) {
        CAPTURE(s);
        CHECK(copy.team_of(s) == m.team_of(s));
        CHECK(copy.active(s));
        CHECK(copy.name(s) == m.name(s));
        CHECK(c.copy().bot(s));
    }
    // A player takes a bot's slot: the roster change reaches the copy in the next update.
    ScriptedClient p(server, link, endpoint(2, 5001));
    const auto slot = static_cast<game::Slot>(p.connect("bea")->body_as_Accepted()->slot());
    c.ack(c.copy().tick());
    server.tick();
    REQUIRE(c.take() == 1);
    CHECK(c.copy().match().name(slot) == "bea");
    CHECK_FALSE(c.copy().bot(slot));
    CHECK(c.copy().match().state_hash() == server.room(0).state_hash());
}

TEST_CASE("goal events of a later match carry the server tick of their step") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.timeout_s = 600;
    config.final_pause_s = 0.5;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("watcher", -1, /*spectator=*/true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("rink.json"));

    std::vector<Seen> seen;
    std::vector<game::MatchEvent> events;
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
        follow(c, seen, events);
    }
    REQUIRE(goal_ticks.size() == 2);
    std::set<std::uint64_t> wire_goal_ticks;
    for (const game::MatchEvent& e : events)
        if (e.kind == game::MatchEvent::Kind::goal && e.tick >= goal_ticks[0] &&
            e.tick <= goal_ticks[1])
            wire_goal_ticks.insert(e.tick);
    CHECK(std::vector<std::uint64_t>(wire_goal_ticks.begin(), wire_goal_ticks.end()) == goal_ticks);
    // The match's own tick is far smaller: match 2 began after the whole of match 1.
    CHECK(server.room(0).match_start_tick() > 0);
    CHECK(goal_ticks[0] > server.room(0).match_start_tick());
    CHECK(c.failures.empty());
}

TEST_CASE("a goal whose update was lost still reaches the client, at its own tick") {
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    config.timeout_s = 600;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("watcher", -1, /*spectator=*/true)->body_type() == net::Body::Accepted);
    c.keep_copy(map_named("rink.json"));
    std::vector<Seen> seen;
    std::vector<game::MatchEvent> events;
    std::optional<std::uint64_t> goal;
    for (std::uint64_t t = 0; t < 60 * 600 && !goal; ++t) {
        const game::Match& m = server.room(0).match();
        const std::uint32_t before = m.score(game::Team::left) + m.score(game::Team::right);
        server.tick();
        if (m.score(game::Team::left) + m.score(game::Team::right) > before) {
            goal = server.current_tick();
            link.inbox[c.at()].clear();  // the update of the goal's tick is lost
        }
        follow(c, seen, events);
    }
    REQUIRE(goal.has_value());
    CHECK(c.copy().tick() < *goal);
    server.tick();  // the next update covers the lost tick too
    follow(c, seen, events);
    REQUIRE(c.copy().tick() == server.current_tick());
    REQUIRE_FALSE(events.empty());
    CHECK(events.front().kind == game::MatchEvent::Kind::goal);
    CHECK(events.front().tick == *goal);
    CHECK(c.failures.empty());
}

TEST_CASE("a session taken over from another address tells the old address why") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
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
