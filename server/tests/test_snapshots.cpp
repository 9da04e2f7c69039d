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

namespace {

// Ticks until client 1 (odd ticks) has been sent a snapshot; returns it, or null.
const net::Snapshot* next_snapshot(Server& server, ScriptedClient& c) {
    for (int t = 0; t < 4; ++t) {
        server.tick();
        if (const net::Packet* p = c.newest(net::Body::Snapshot)) return p->body_as_Snapshot();
    }
    return nullptr;
}

void ack(ScriptedClient& c, std::uint64_t tick) {
    c.input(std::vector<std::pair<std::uint32_t, std::uint8_t>>{}, tick);
}

}  // namespace

TEST_CASE("a client whose acknowledged snapshot has left the history gets a full one") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    config.snapshot_history = 4;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);

    const net::Snapshot* s = next_snapshot(server, c);
    REQUIRE(s != nullptr);
    CHECK(s->baseline_tick() == 0);
    const std::uint64_t acked = s->tick();
    ack(c, acked);
    s = next_snapshot(server, c);
    REQUIRE(s != nullptr);
    CHECK(s->baseline_tick() == acked);  // still held: a delta

    // The client acknowledges nothing newer while the room moves on past its history.
    for (int t = 0; t < 100 && server.room(0).frame_at(acked) != nullptr; ++t)
        server.tick();
    REQUIRE(server.room(0).frame_at(acked) == nullptr);
    c.clear();
    const std::uint64_t full_before = server.stats().snapshots_full;
    s = next_snapshot(server, c);
    REQUIRE(s != nullptr);
    CHECK(s->baseline_tick() == 0);
    CHECK(server.stats().snapshots_full == full_before + 1);
    std::string error;
    const auto frame = protocol::decode_snapshot(*s, nullptr, error);
    REQUIRE_MESSAGE(frame.has_value(), error);
    const protocol::Frame& truth = server.room(0).latest_frame();
    CHECK(frame->tick == truth.tick);
    REQUIRE(frame->disks.size() == truth.disks.size());
    for (std::size_t i = 0; i < truth.disks.size(); ++i) {
        CHECK(frame->disks[i].x() == truth.disks[i].x());
        CHECK(frame->disks[i].y() == truth.disks[i].y());
    }
}

TEST_CASE("an acknowledgement from the future or of an older snapshot does not move the baseline") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.bots = true;
    Server server(config, link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("eye", 0, true)->body_type() == net::Body::Accepted);

    const net::Snapshot* s = next_snapshot(server, c);
    REQUIRE(s != nullptr);
    const std::uint64_t first = s->tick();
    ack(c, first);
    s = next_snapshot(server, c);
    REQUIRE(s != nullptr);
    const std::uint64_t second = s->tick();
    CHECK(s->baseline_tick() == first);
    ack(c, second);
    CHECK(server.session(c.client_id())->acked_snapshot == second);

    ack(c, first);  // older than the one acknowledged: ignored
    CHECK(server.session(c.client_id())->acked_snapshot == second);
    s = next_snapshot(server, c);
    REQUIRE(s != nullptr);
    CHECK(s->baseline_tick() == second);

    // A tick the server has not reached yet: a forged or broken ack, ignored.
    for (const std::uint64_t ahead : {std::uint64_t{1}, std::uint64_t{1000}}) {
        CAPTURE(ahead);
        ack(c, server.current_tick() + ahead);
        CHECK(server.session(c.client_id())->acked_snapshot == second);
        s = next_snapshot(server, c);
        REQUIRE(s != nullptr);
        CHECK(s->baseline_tick() == second);
    }
}
