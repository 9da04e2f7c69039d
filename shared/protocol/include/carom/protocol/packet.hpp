#pragma once
// The datagrams of the wire protocol (schemas/net.fbs): what both ends agree
// on before anything reads a field. Every datagram is one FlatBuffers buffer
// of one of three root tables, told apart by its file identifier; each is
// verified before any field is read.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "carom/result.hpp"
#include "net_generated.h"

namespace carom::protocol {

// What each version changed: schemas/PROTOCOL.md, "Versions and evolution".
inline constexpr std::uint32_t kProtocolVersion = 8;
inline constexpr std::size_t kMaxDatagramBytes = 1200;
// What sealing adds to every datagram of a session (carom/protocol/seal.hpp),
// and so the largest one before it is sealed.
inline constexpr std::size_t kSealOverheadBytes = 16;
inline constexpr std::size_t kMaxSessionDatagramBytes = kMaxDatagramBytes - kSealOverheadBytes;
// ConnectRequest and ConnectResponse are padded to at least this, so no
// reply before acceptance (Challenge, Denied, Accepted) is larger.
inline constexpr std::size_t kConnectRequestMinBytes = 256;
inline constexpr std::size_t kMaxNameBytes = 15;
// Inputs a ClientUpdate carries at most (Accepted.input_redundancy is capped
// at it), and the default: a client resends every input the server has not
// yet shown it applied, up to this many.
inline constexpr std::uint32_t kMaxInputRedundancy = 64;
inline constexpr std::uint32_t kDefaultInputRedundancy = 8;

// The file identifiers of the three root tables.
inline constexpr char kPacketIdentifier[] = "CNET";
inline constexpr char kServerUpdateIdentifier[] = "CNSU";
inline constexpr char kClientUpdateIdentifier[] = "CNCU";

// Input sequence numbers count from 1 and wrap at 2^32 (after 2^32 - 1 comes
// 0). `a` comes after `b` when it is 1 .. kSequenceWindow ahead of it, modulo
// 2^32: about 4.8 hours of inputs at 60 Hz, far more than a client can send
// ahead, far less than the half of the circle where "ahead" becomes ambiguous.
inline constexpr std::uint32_t kSequenceWindow = 1u << 20;
constexpr bool sequence_after(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t ahead = a - b;  // modulo 2^32
    return ahead != 0 && ahead <= kSequenceWindow;
}

// The value nearest `reference` whose low 16 bits are `low` (from 2^15 below
// it to 2^15 - 1 above, modulo 2^64): how a 16-bit tick, sequence or
// acknowledgement on the wire is read back.
constexpr std::uint64_t extend16(std::uint16_t low, std::uint64_t reference) {
    const auto step = static_cast<std::uint16_t>(low - static_cast<std::uint16_t>(reference));
    return reference + static_cast<std::uint64_t>(std::int64_t{static_cast<std::int16_t>(step)});
}

// What a datagram is, from its size and identifier alone: the cheap first
// look a receiver takes before any verification.
enum class DatagramKind : std::uint8_t {
    packet = 0,
    server_update,
    client_update,
    too_short,
    too_long,
    bad_identifier,
};
DatagramKind classify(std::span<const std::uint8_t> bytes);

// Why a datagram was refused before any field was read; receivers count them.
enum class PacketError : std::uint8_t {
    too_short = 0,
    too_long,
    bad_identifier,
    malformed,      // the FlatBuffers verifier said no
    wrong_version,  // not this build's kProtocolVersion, where no answer is owed
    count_
};
std::string_view to_string(PacketError error);
// The refusal of a kind that is not a table (too_short...); malformed otherwise.
PacketError refusal_of(DatagramKind kind);

// The root table in `bytes` once the FlatBuffers verifier passed it (depth
// 16, 512 tables at most); the error says why not. `bytes` must stay alive
// and be 8-byte aligned (receive buffers are) and be of that kind.
Result<const net::Packet*> verify_packet(std::span<const std::uint8_t> bytes);
Result<const net::ServerUpdate*> verify_server_update(std::span<const std::uint8_t> bytes);
Result<const net::ClientUpdate*> verify_client_update(std::span<const std::uint8_t> bytes);

// Packet.protocol read with a bounds check of every offset on the way (root,
// vtable, field), but without the verifier; the error when an offset points
// outside `bytes`. Only for a quick refusal; fields are read after verify_packet.
Result<std::uint32_t> peek_protocol(std::span<const std::uint8_t> bytes);

// Finishes a Packet around `body` and returns its bytes (a view into the builder).
std::span<const std::uint8_t> finish_packet(flatbuffers::FlatBufferBuilder& builder,
                                            std::uint32_t client_id, net::Body type,
                                            flatbuffers::Offset<void> body);

// A name as the server keeps it: printable ASCII, at most kMaxNameBytes.
std::string clean_name(std::string_view name);

}  // namespace carom::protocol
