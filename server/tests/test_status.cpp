// The status query: answered before any session, never larger than its
// request, paged, rate-limited like the handshake.
#include <doctest/doctest.h>

#include "carom/protocol/status.hpp"
#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

std::vector<std::uint8_t> status_request(std::uint32_t first_room, std::size_t extra = 0) {
    flatbuffers::FlatBufferBuilder b;
    if (extra == 0) {
        const auto bytes = protocol::encode_status_request(b, first_room);
        return {bytes.begin(), bytes.end()};
    }
    const std::vector<std::uint8_t> pad(extra, 0);
    const auto body = net::CreateStatusRequest(b, first_room, b.CreateVector(pad));
    const auto bytes = protocol::finish_packet(b, 0, net::Body::StatusRequest, body.Union());
    return {bytes.begin(), bytes.end()};
}

}  // namespace

TEST_CASE("status lists every room, paged, each reply no larger than its request") {
    Link link;
    ServerConfig config = config_for("arena.json", 40);
    config.maps = {kMaps / "arena.json", kMaps / "rink.json"};
    config.bots = true;
    config.name = "forty rooms";
    InlineDiskWork disk;
    Server s(config, link, disk, fixed_cookies(), "t");
    ScriptedClient player(s, link, endpoint(1, 1000), 1);
    REQUIRE(player.connect("ana", 3) != nullptr);
    ScriptedClient watcher(s, link, endpoint(1, 1001), 2);
    REQUIRE(watcher.connect("eve", 3, true) != nullptr);
    s.tick();

    ScriptedClient browser(s, link, endpoint(9, 4000));
    std::vector<protocol::RoomInfo> rooms;
    int pages = 0;
    while (rooms.size() < 40 && pages < 20) {
        const auto request = status_request(static_cast<std::uint32_t>(rooms.size()));
        browser.clear();
        browser.send_raw(request);
        REQUIRE(browser.pending() == 1);
        const std::size_t reply_size = link.inbox[browser.at()].front().bytes.size();
        CHECK(reply_size <= request.size());
        const net::Packet* p = browser.next();
        REQUIRE(p != nullptr);
        REQUIRE(p->body_as_Status() != nullptr);
        const protocol::ServerStatus st = protocol::decode_status(*p->body_as_Status());
        CHECK(st.name == "forty rooms");
        CHECK(st.protocol == protocol::kProtocolVersion);
        CHECK(st.rooms_total == 40);
        CHECK(st.first_room == rooms.size());
        REQUIRE(!st.rooms.empty());
        rooms.insert(rooms.end(), st.rooms.begin(), st.rooms.end());
        ++pages;
    }
    REQUIRE(rooms.size() == 40);
    CHECK(pages > 1);
    for (std::uint32_t r = 0; r < 40; ++r) {
        CHECK(rooms[r].room == r);
        CHECK(rooms[r].map_name == (r % 2 == 0 ? "arena" : "rink"));
        CHECK(rooms[r].map_hash == s.room(r).map_hash());
        CHECK(rooms[r].slots == s.room(r).slot_count());
    }
    CHECK(rooms[3].players == 1);
    CHECK(rooms[3].bots == rooms[3].slots - 1);
    CHECK(rooms[3].spectators == 1);
    CHECK(rooms[0].players == 0);
    CHECK(s.stats().status_answered == static_cast<std::uint64_t>(pages));
}

TEST_CASE("an unpadded status request gets no answer, nor one past the rate of its address") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.handshake_replies_per_ip_s = 4;
    InlineDiskWork disk;
    Server s(config, link, disk, fixed_cookies(), "t");
    ScriptedClient browser(s, link, endpoint(9, 4000));
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateStatusRequest(b, 0);
    browser.send_raw(protocol::finish_packet(b, 0, net::Body::StatusRequest, body.Union()));
    CHECK(browser.pending() == 0);
    CHECK(s.stats().dropped[static_cast<std::size_t>(Drop::unpadded_request)] == 1);
    for (int i = 0; i < 10; ++i)
        browser.send_raw(status_request(0));
    CHECK(browser.pending() == 4);
    CHECK(s.stats().status_answered == 4);
    CHECK(s.stats().status_refused == 7);
    CHECK(s.stats().dropped[static_cast<std::size_t>(Drop::rate_limited)] == 6);
}

TEST_CASE("a status request of another protocol version is answered the same") {
    Link link;
    InlineDiskWork disk;
    Server s(config_for("arena.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient browser(s, link, endpoint(9, 4000));
    flatbuffers::FlatBufferBuilder b;
    for (std::size_t padding = 1100; b.GetSize() < protocol::kStatusRequestMinBytes; ++padding) {
        b.Clear();
        const std::vector<std::uint8_t> pad(padding, 0);
        const auto body = net::CreateStatusRequest(b, 0, b.CreateVector(pad));
        net::PacketBuilder p(b);
        p.add_protocol(protocol::kProtocolVersion + 7);
        p.add_body_type(net::Body::StatusRequest);
        p.add_body(body.Union());
        net::FinishPacketBuffer(b, p.Finish());
    }
    REQUIRE(b.GetSize() <= protocol::kMaxDatagramBytes);
    browser.send_raw({b.GetBufferPointer(), b.GetSize()});
    const net::Packet* reply = browser.next();
    REQUIRE(reply != nullptr);
    REQUIRE(reply->body_as_Status() != nullptr);
    CHECK(reply->body_as_Status()->protocol() == protocol::kProtocolVersion);
}
