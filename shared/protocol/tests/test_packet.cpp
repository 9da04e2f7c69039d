// Datagrams (packet.hpp): what a receiver can tell before reading a field,
// the verifier in front of every root table, and the wire's small rules.
#include "carom/protocol/packet.hpp"

#include <vector>

#include <doctest/doctest.h>

using namespace carom;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes copy_of(std::span<const std::uint8_t> bytes) {
    return {bytes.begin(), bytes.end()};
}

Bytes denied() {
    flatbuffers::FlatBufferBuilder b;
    const auto body =
        net::CreateDenied(b, net::DenyReason::version_mismatch, b.CreateString("speaks 5"));
    return copy_of(protocol::finish_packet(b, 0, net::Body::Denied, body.Union()));
}

}  // namespace

TEST_CASE("datagrams are told apart by size and file identifier before anything is verified") {
    CHECK(protocol::classify(denied()) == protocol::DatagramKind::packet);
    Bytes b = denied();
    std::copy_n("CNSU", 4, b.begin() + 4);
    CHECK(protocol::classify(b) == protocol::DatagramKind::server_update);
    std::copy_n("CNCU", 4, b.begin() + 4);
    CHECK(protocol::classify(b) == protocol::DatagramKind::client_update);
    std::copy_n("XXXX", 4, b.begin() + 4);
    CHECK(protocol::classify(b) == protocol::DatagramKind::bad_identifier);
    CHECK(protocol::classify(Bytes(7, 0)) == protocol::DatagramKind::too_short);
    CHECK(protocol::classify(Bytes(protocol::kMaxDatagramBytes + 1, 0)) ==
          protocol::DatagramKind::too_long);
    CHECK(protocol::refusal_of(protocol::DatagramKind::too_long) ==
          protocol::PacketError::too_long);
    CHECK(protocol::refusal_of(protocol::DatagramKind::packet) == protocol::PacketError::malformed);
}

TEST_CASE("a Packet verifies, and damaged or bodiless ones are refused with a reason") {
    const Bytes good = denied();
    const auto packet = protocol::verify_packet(good);
    REQUIRE(packet.ok());
    CHECK((*packet)->protocol() == protocol::kProtocolVersion);
    REQUIRE((*packet)->body_as_Denied() != nullptr);

    // Every truncation into its tables fails the verifier, never reads past
    // the end (the last 3 bytes are the padding after the detail string).
    for (std::size_t n = 8; n + 3 < good.size(); ++n) {
        const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        CHECK_FALSE(protocol::verify_packet(cut).ok());
    }
    // A Packet without a body is refused by the verifier (`body` is required).
    // (Built field by field: PacketBuilder itself refuses to finish one.)
    flatbuffers::FlatBufferBuilder b;
    const auto start = b.StartTable();
    b.AddElement<std::uint32_t>(net::Packet::VT_PROTOCOL, protocol::kProtocolVersion, 0);
    b.Finish(flatbuffers::Offset<net::Packet>(b.EndTable(start)), protocol::kPacketIdentifier);
    Bytes bodiless = copy_of({b.GetBufferPointer(), b.GetSize()});
    CHECK_FALSE(protocol::verify_packet(bodiless).ok());
}

TEST_CASE("a Denied and the protocol field keep their places across versions") {
    // An older client must read this server's version_mismatch: Packet field 0
    // is the protocol, the body union is fields 2-3, Denied is its tag 5.
    const Bytes d = denied();
    const auto version = protocol::peek_protocol(d);
    REQUIRE(version.ok());
    CHECK(*version == protocol::kProtocolVersion);
    CHECK(static_cast<int>(net::Body::Denied) == 5);
    CHECK(static_cast<int>(net::Body::Disconnect) == 9);
    CHECK(net::Packet::VT_PROTOCOL == 4);
    CHECK(net::Packet::VT_BODY_TYPE == 8);
    CHECK(net::Packet::VT_BODY == 10);
    CHECK_FALSE(protocol::peek_protocol(Bytes{0xFF, 0xFF, 0, 0, 'C', 'N', 'E', 'T'}).ok());
}

TEST_CASE("16-bit ticks and sequences are read back nearest a reference") {
    CHECK(protocol::extend16(0x0005, 0x1'0003) == 0x1'0005);
    CHECK(protocol::extend16(0xFFFF, 0x1'0003) == 0x0'FFFF);  // just behind
    CHECK(protocol::extend16(0x0002, 0x1'FFFE) == 0x2'0002);  // just ahead, across a wrap
    CHECK(protocol::extend16(0x8003, 0x1'0003) == 0x0'8003);  // 2^15 behind
    CHECK(protocol::extend16(0x8002, 0x1'0003) == 0x1'8002);  // 2^15 - 1 ahead
    // Sequences wrap at 2^32: the low 32 bits of the result are the sequence.
    CHECK(static_cast<std::uint32_t>(protocol::extend16(0x0001, 0xFFFF'FFFE)) == 1u);
    CHECK(static_cast<std::uint32_t>(protocol::extend16(0xFFFD, 2)) == 0xFFFF'FFFDu);
}

TEST_CASE("sequence numbers: after means 1 to 2^20 ahead, modulo 2^32") {
    CHECK(protocol::sequence_after(2, 1));
    CHECK_FALSE(protocol::sequence_after(1, 1));
    CHECK_FALSE(protocol::sequence_after(1, 2));
    CHECK(protocol::sequence_after(0, 0xFFFF'FFFF));
    CHECK(protocol::sequence_after(protocol::kSequenceWindow, 0));
    CHECK_FALSE(protocol::sequence_after(protocol::kSequenceWindow + 1, 0));
}

TEST_CASE("names are printable ASCII without spaces, at most 15 characters") {
    CHECK(protocol::clean_name("ann") == "ann");
    CHECK(protocol::clean_name("a b\tc\x1b[2J") == "abc[2J");
    CHECK(protocol::clean_name("") == "player");
    CHECK(protocol::clean_name("0123456789abcdefghij") == "0123456789abcde");
}
