#include <doctest/doctest.h>

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

TEST_CASE("inputs are applied one per tick and snapshots report the last one applied") {
    Link link;
    Server server(config_for("rink.json"), link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    const auto slot = static_cast<game::Slot>(c.connect("ana")->body_as_Accepted()->slot());
    // Three inputs, each sent three times (redundancy), newest last.
    const std::vector<std::pair<std::uint32_t, std::uint8_t>> cmds{
        {1, game::Input::move(0).bits()},
        {2, game::Input::move(4).bits()},
        {3, game::Input::move(8, true).bits()}};
    c.input(std::span(cmds).first(1));
    c.input(std::span(cmds).first(2));
    c.input(cmds);
    CHECK(server.stats().inputs_duplicate == 3);
    server.tick();  // client 1's snapshots go out on odd ticks
    CHECK(server.room(0).match().last_input(slot) == game::Input::move(0));
    const net::Packet* snap = c.newest(net::Body::Snapshot);
    REQUIRE(snap != nullptr);
    CHECK(snap->body_as_Snapshot()->last_input_sequence() == 1);
    server.tick();
    CHECK(server.room(0).match().last_input(slot) == game::Input::move(4));
    server.tick();
    snap = c.newest(net::Body::Snapshot);
    REQUIRE(snap != nullptr);
    CHECK(snap->body_as_Snapshot()->last_input_sequence() == 3);
    server.tick();  // nothing new: the last input repeats
    CHECK(server.room(0).match().last_input(slot) == game::Input::move(8, true));
    CHECK(server.stats().inputs_repeated >= 1);
    // An input already applied is stale.
    c.input(std::span(cmds).first(1));
    CHECK(server.stats().inputs_stale == 1);
}

TEST_CASE("snapshots: full until acknowledged, then deltas that decode to the server's frame") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana", 0, true)->body_type() == net::Body::Accepted);

    server.tick();
    server.tick();
    const net::Packet* p = c.newest(net::Body::Snapshot);
    REQUIRE(p != nullptr);
    const net::Snapshot& full = *p->body_as_Snapshot();
    CHECK(full.baseline_tick() == 0);
    REQUIRE(full.players() != nullptr);  // the roster comes with the first snapshot
    std::string error;
    auto frame = protocol::decode_snapshot(full, nullptr, error);
    REQUIRE(frame.has_value());
    CHECK(frame->tick == 1);  // client 1's snapshots go out on odd ticks

    std::vector<std::pair<std::uint32_t, std::uint8_t>> none;
    c.input(none, frame->tick);
    server.tick();
    p = c.newest(net::Body::Snapshot);
    REQUIRE(p != nullptr);
    const net::Snapshot& delta = *p->body_as_Snapshot();
    CHECK(delta.tick() == 3);
    CHECK(delta.baseline_tick() == 1);
    CHECK(delta.players() == nullptr);  // roster acknowledged with tick 1
    auto next = protocol::decode_snapshot(delta, &*frame, error);
    REQUIRE(next.has_value());
    const protocol::Frame& truth = server.room(0).latest_frame();
    REQUIRE(next->disks.size() == truth.disks.size());
    for (std::size_t i = 0; i < truth.disks.size(); ++i) {
        CHECK(next->disks[i].x() == truth.disks[i].x());
        CHECK(next->disks[i].vy() == truth.disks[i].vy());
    }
    CHECK(server.stats().snapshots_delta >= 1);
}

TEST_CASE("every snapshot of a full 8 v 8 room fits one datagram") {
    Link link;
    ServerConfig config = config_for("stadium.json");
    config.bots = true;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("watcher-name-15", 0, true)->body_type() == net::Body::Accepted);
    for (int t = 0; t < 120; ++t)
        server.tick();
    std::size_t largest = 0;
    for (const Datagram& d : link.inbox[c.at()])
        largest = std::max(largest, d.bytes.size());
    CHECK(largest > 0);
    CHECK(largest <= protocol::kMaxDatagramBytes);
}
