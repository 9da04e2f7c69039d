#include "junk.hpp"

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::loadgen {
namespace {

std::uint8_t random_byte(std::mt19937_64& rng) {
    return static_cast<std::uint8_t>(rng() & 0xFF);
}

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t size) {
    std::vector<std::uint8_t> out(size);
    for (std::uint8_t& b : out)
        b = random_byte(rng);
    return out;
}

// A real packet as clients send them: a padded ConnectRequest or a ClientUpdate.
std::vector<std::uint8_t> real_packet(std::mt19937_64& rng, bool input, std::uint32_t client_id) {
    flatbuffers::FlatBufferBuilder b;
    std::span<const std::uint8_t> bytes;
    if (!input) {
        const auto pad = b.CreateVector(std::vector<std::uint8_t>(240, 0));
        const auto body =
            net::CreateConnectRequest(b, b.CreateString("junk"), -1, false, pad, rng());
        bytes = protocol::finish_packet(b, 0, net::Body::ConnectRequest, body.Union());
    } else {
        (void)client_id;  // a ClientUpdate names no client: the server finds it by address
        protocol::ClientReport r;
        for (std::uint32_t s = 1; s <= 8; ++s)
            r.inputs.push_back(game::Input::from_bits(random_byte(rng)));
        r.sequence = 8;  // in the clear: what a session never sends
        bytes = protocol::encode_client_report(b, r);
    }
    return {bytes.begin(), bytes.end()};
}

}  // namespace

std::string_view to_string(JunkKind kind) {
    switch (kind) {
        case JunkKind::random_bytes:
            return "random bytes";
        case JunkKind::wrong_identifier:
            return "wrong identifier";
        case JunkKind::truncated:
            return "truncated";
        case JunkKind::random_tables:
            return "random tables";
        case JunkKind::unknown_sender:
            return "unknown sender";
        case JunkKind::count_:
            break;
    }
    return "?";
}

JunkKind junk_kind(std::uint64_t index) {
    return static_cast<JunkKind>(index % static_cast<std::uint64_t>(JunkKind::count_));
}

std::vector<std::uint8_t> make_junk(std::mt19937_64& rng, std::uint64_t index) {
    switch (junk_kind(index)) {
        case JunkKind::random_bytes:
            return random_bytes(rng, rng() % 1401);
        case JunkKind::wrong_identifier: {
            std::vector<std::uint8_t> p = real_packet(rng, rng() % 2 == 0, 0);
            // Not into another of the protocol's identifiers ("CNCU" is a byte from "CNSU").
            do
                p[4 + rng() % 4] ^= static_cast<std::uint8_t>(1 + rng() % 255);
            while (protocol::classify(p) != protocol::DatagramKind::bad_identifier);
            return p;
        }
        case JunkKind::truncated: {
            // Cut into its data, not only the padding after it (up to 3 bytes).
            std::vector<std::uint8_t> p = real_packet(rng, rng() % 2 == 0, 0);
            p.resize(rng() % (p.size() - 3));
            return p;
        }
        case JunkKind::random_tables: {
            // Root offset and identifier intact, everything after them random.
            std::vector<std::uint8_t> p = real_packet(rng, rng() % 2 == 0, 0);
            for (std::size_t i = 8; i < p.size(); ++i)
                p[i] = random_byte(rng);
            p[0] = random_byte(rng);
            return p;
        }
        case JunkKind::unknown_sender:
        case JunkKind::count_:
            break;
    }
    // Well formed, so only the server's session lookup can refuse it.
    return real_packet(rng, true, static_cast<std::uint32_t>(rng() | 1));
}

}  // namespace carom::loadgen
