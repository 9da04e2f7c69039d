// carom-loadgen's junk: every kind is refused for the reason it stands for.
#include <random>

#include <doctest/doctest.h>

#include "carom/protocol/net.hpp"
#include "junk.hpp"

namespace carom::loadgen {
namespace {

TEST_CASE("junk_is_refused_by_verification_except_the_unknown_sender_input") {
    std::mt19937_64 rng(12345);
    std::uint64_t refused_as_bad_identifier = 0;
    for (std::uint64_t i = 0; i < 5000; ++i) {
        const std::vector<std::uint8_t> junk = make_junk(rng, i);
        CHECK(junk.size() <= 1400);
        const protocol::VerifiedPacket v = protocol::verify_packet(junk);
        INFO("junk " << i << ": " << to_string(junk_kind(i)));
        switch (junk_kind(i)) {
            case JunkKind::unknown_sender:
                REQUIRE(v.packet != nullptr);
                CHECK(v.packet->body_type() == net::Body::ClientInput);
                CHECK(v.packet->client_id() != 0);
                break;
            case JunkKind::wrong_identifier:
                CHECK(v.error == protocol::PacketError::bad_identifier);
                ++refused_as_bad_identifier;
                break;
            default:
                CHECK(v.packet == nullptr);
        }
    }
    CHECK(refused_as_bad_identifier == 1000);
}

}  // namespace
}  // namespace carom::loadgen
