// carom-loadgen's junk: every kind is refused for the reason it stands for.
#include <random>

#include <doctest/doctest.h>

#include "carom/protocol/packet.hpp"
#include "junk.hpp"

namespace carom::loadgen {
namespace {

// Whether a receiver's verifier would take the datagram, whatever its root.
bool verifies(std::span<const std::uint8_t> d) {
    switch (protocol::classify(d)) {
        case protocol::DatagramKind::packet:
            return protocol::verify_packet(d).ok();
        case protocol::DatagramKind::server_update:
            return protocol::verify_server_update(d).ok();
        case protocol::DatagramKind::client_update:
            return protocol::verify_client_update(d).ok();
        default:
            return false;
    }
}

TEST_CASE("junk_is_refused_by_verification_except_the_unknown_sender_input") {
    std::mt19937_64 rng(12345);
    std::uint64_t refused_as_bad_identifier = 0;
    for (std::uint64_t i = 0; i < 5000; ++i) {
        const std::vector<std::uint8_t> junk = make_junk(rng, i);
        CHECK(junk.size() <= 1400);
        INFO("junk " << i << ": " << to_string(junk_kind(i)));
        switch (junk_kind(i)) {
            case JunkKind::unknown_sender:
                REQUIRE(protocol::classify(junk) == protocol::DatagramKind::client_update);
                CHECK(verifies(junk));
                break;
            case JunkKind::wrong_identifier:
                CHECK(protocol::classify(junk) == protocol::DatagramKind::bad_identifier);
                ++refused_as_bad_identifier;
                break;
            default:
                CHECK_FALSE(verifies(junk));
        }
    }
    CHECK(refused_as_bad_identifier == 1000);
}

}  // namespace
}  // namespace carom::loadgen
