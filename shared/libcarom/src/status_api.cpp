// The status query for programs that list a server's rooms themselves (the
// play page's lobby): the request to send, the reply in the words of
// `carom-client --list --json`.
#include <algorithm>
#include <array>

#include "api_support.hpp"
#include "carom/client/room_text.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/status.hpp"

using namespace carom;
using namespace carom::capi;

extern "C" {

carom_status carom_status_request(uint32_t first_room, uint8_t* buffer, size_t capacity,
                                  size_t* size) {
    return guarded([&] {
        require(buffer, "buffer");
        require(size, "size");
        flatbuffers::FlatBufferBuilder builder(protocol::kStatusRequestMinBytes + 64);
        const auto bytes = protocol::encode_status_request(builder, first_room);
        if (capacity < bytes.size())
            throw Failure{CAROM_ERROR_ARGUMENT, "a buffer of " + std::to_string(capacity) +
                                                    " bytes: CAROM_MAX_DATAGRAM at least"};
        std::copy(bytes.begin(), bytes.end(), buffer);
        *size = bytes.size();
    });
}

carom_status carom_status_json(const uint8_t* bytes, size_t size, const char* server, char* out,
                               size_t capacity, size_t* length) {
    return guarded([&] {
        require(length, "length");
        if (size > 0) require(bytes, "bytes");
        // Verified in an aligned copy, as every datagram is read.
        std::array<std::uint64_t, protocol::kMaxDatagramBytes / 8 + 1> aligned{};
        if (size > protocol::kMaxDatagramBytes)
            throw Failure{CAROM_ERROR_DATA, "not a Status reply: larger than a datagram"};
        std::copy_n(bytes, size, reinterpret_cast<std::uint8_t*>(aligned.data()));
        const std::span<const std::uint8_t> datagram(
            reinterpret_cast<const std::uint8_t*>(aligned.data()), size);
        if (protocol::classify(datagram) != protocol::DatagramKind::packet)
            throw Failure{CAROM_ERROR_DATA, "not a Status reply"};
        const auto packet = protocol::verify_packet(datagram);
        if (!packet || (*packet)->body_type() != net::Body::Status)
            throw Failure{CAROM_ERROR_DATA, "not a Status reply"};
        const std::string text = client::room_json(
            protocol::decode_status(*(*packet)->body_as_Status()), server != nullptr ? server : "");
        *length = text.size();
        if (capacity > text.size()) {
            std::copy(text.begin(), text.end(), require(out, "out"));
            out[text.size()] = '\0';
        }
    });
}

}  // extern "C"
