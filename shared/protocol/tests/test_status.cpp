// The status reply: as many rooms as fit the request's size, read back whole.
#include <doctest/doctest.h>

#include "carom/protocol/packet.hpp"
#include "carom/protocol/status.hpp"

using namespace carom;
using namespace carom::protocol;

TEST_CASE("a status request is padded to its minimum, and a reply holds the rooms that fit") {
    flatbuffers::FlatBufferBuilder b;
    const auto request = encode_status_request(b, 3);
    CHECK(request.size() >= kStatusRequestMinBytes);
    CHECK(request.size() <= kMaxDatagramBytes);

    ServerStatus s;
    s.name = std::string(64, 'n');
    s.version = "0.1.0";
    s.protocol = kProtocolVersion;
    s.rooms_total = 30;
    s.first_room = 0;
    for (std::uint32_t r = 0; r < 30; ++r) {
        RoomInfo info;
        info.room = r;
        info.map_name = std::string(64, static_cast<char>('a' + r % 26));
        info.map_hash = 0x1234567890ABCDEFull + r;
        info.slots = 32;
        info.players = r;
        info.phase = schema::Phase::goal_pause;
        s.rooms.push_back(info);
    }
    for (const std::size_t limit : {300UL, 600UL, 1200UL}) {
        const auto reply = encode_status(b, s, limit);
        REQUIRE(!reply.empty());
        CHECK(reply.size() <= limit);
        const std::vector<std::uint8_t> bytes(reply.begin(), reply.end());
        const auto packet = verify_packet(bytes);
        REQUIRE(packet);
        const ServerStatus back = decode_status(*(*packet)->body_as_Status());
        CHECK(back.name == s.name);
        CHECK(back.rooms_total == 30);
        REQUIRE(!back.rooms.empty());
        CHECK(back.rooms.size() < 30);
        CHECK(back.rooms.back().map_name == s.rooms[back.rooms.size() - 1].map_name);
        CHECK(back.rooms.back().phase == schema::Phase::goal_pause);
        // One room more would not have fitted.
        ServerStatus more = s;
        more.rooms.resize(back.rooms.size() + 1);
        CHECK(encode_status(b, more, limit).size() == reply.size());
    }
    CHECK(encode_status(b, s, 40).empty());  // not even the head fits
}
