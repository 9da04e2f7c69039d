#include "carom/protocol/packet.hpp"

#include <cstring>

namespace carom::protocol {
namespace {

// A datagram holds a handful of tables; anything deeper or wider is hostile.
constexpr flatbuffers::uoffset_t kMaxDepth = 16;
constexpr flatbuffers::uoffset_t kMaxTables = 512;

bool has_identifier(std::span<const std::uint8_t> bytes, const char* identifier) {
    return std::memcmp(bytes.data() + sizeof(flatbuffers::uoffset_t), identifier,
                       flatbuffers::kFileIdentifierLength) == 0;
}

template <class Root>
Result<const Root*> verify_root(std::span<const std::uint8_t> bytes, const char* identifier) {
    flatbuffers::Verifier verifier(bytes.data(), bytes.size(), kMaxDepth, kMaxTables);
    if (!verifier.VerifyBuffer<Root>(identifier))
        return fail(std::string("malformed ") + identifier +
                    " (the FlatBuffers verifier refused it)");
    return flatbuffers::GetRoot<Root>(bytes.data());
}

}  // namespace

DatagramKind classify(std::span<const std::uint8_t> bytes) {
    // Root offset and file identifier at least.
    if (bytes.size() < 8) return DatagramKind::too_short;
    if (bytes.size() > kMaxDatagramBytes) return DatagramKind::too_long;
    if (has_identifier(bytes, kServerUpdateIdentifier)) return DatagramKind::server_update;
    if (has_identifier(bytes, kClientUpdateIdentifier)) return DatagramKind::client_update;
    if (has_identifier(bytes, kPacketIdentifier)) return DatagramKind::packet;
    return DatagramKind::bad_identifier;
}

std::string_view to_string(PacketError error) {
    switch (error) {
        case PacketError::too_short:
            return "too short";
        case PacketError::too_long:
            return "too long";
        case PacketError::bad_identifier:
            return "bad identifier";
        case PacketError::malformed:
            return "malformed";
        case PacketError::wrong_version:
            return "wrong version";
        case PacketError::count_:
            break;
    }
    return "?";
}

PacketError refusal_of(DatagramKind kind) {
    switch (kind) {
        case DatagramKind::too_short:
            return PacketError::too_short;
        case DatagramKind::too_long:
            return PacketError::too_long;
        case DatagramKind::bad_identifier:
            return PacketError::bad_identifier;
        default:
            return PacketError::malformed;
    }
}

Result<std::uint32_t> peek_protocol(std::span<const std::uint8_t> bytes) {
    const auto read = [&](std::size_t at, std::size_t n) -> std::optional<std::uint32_t> {
        if (at > bytes.size() || n > bytes.size() - at) return std::nullopt;
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < n; ++i)  // little-endian, as FlatBuffers
            v |= static_cast<std::uint32_t>(bytes[at + i]) << (8 * i);
        return v;
    };
    const auto outside = [] { return fail("an offset points outside the datagram"); };
    const auto root = read(0, 4);
    if (!root) return outside();
    const auto soffset = read(*root, 4);
    if (!soffset) return outside();
    // vtable = table - soffset (signed), computed without overflow.
    const std::int64_t vtable =
        static_cast<std::int64_t>(*root) - static_cast<std::int32_t>(*soffset);
    if (vtable < 0) return outside();
    const auto vtable_size = read(static_cast<std::size_t>(vtable), 2);
    if (!vtable_size) return outside();
    if (*vtable_size < 6) return 0U;  // no protocol field: its default
    const auto field = read(static_cast<std::size_t>(vtable) + 4, 2);
    if (!field) return outside();
    if (*field == 0) return 0U;
    const auto protocol = read(std::size_t{*root} + *field, 4);
    if (!protocol) return outside();
    return *protocol;
}

Result<const net::Packet*> verify_packet(std::span<const std::uint8_t> bytes) {
    return verify_root<net::Packet>(bytes, kPacketIdentifier);
}

Result<const net::ServerUpdate*> verify_server_update(std::span<const std::uint8_t> bytes) {
    return verify_root<net::ServerUpdate>(bytes, kServerUpdateIdentifier);
}

Result<const net::ClientUpdate*> verify_client_update(std::span<const std::uint8_t> bytes) {
    return verify_root<net::ClientUpdate>(bytes, kClientUpdateIdentifier);
}

std::span<const std::uint8_t> finish_packet(flatbuffers::FlatBufferBuilder& b,
                                            std::uint32_t client_id, net::Body type,
                                            flatbuffers::Offset<void> body) {
    net::PacketBuilder packet(b);
    // The one-byte union type first: it then sits against the body's vtable
    // (2-byte aligned) instead of costing a padded word of its own.
    packet.add_body_type(type);
    packet.add_protocol(kProtocolVersion);
    packet.add_client_id(client_id);
    packet.add_body(body);
    b.Finish(packet.Finish(), kPacketIdentifier);
    return {b.GetBufferPointer(), b.GetSize()};
}

std::string clean_name(std::string_view name) {
    std::string out;
    for (char c : name) {
        if (out.size() == kMaxNameBytes) break;
        if (c >= 0x21 && c <= 0x7E) out.push_back(c);
    }
    return out.empty() ? std::string("player") : out;
}

}  // namespace carom::protocol
