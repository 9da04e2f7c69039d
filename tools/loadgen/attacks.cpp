#include "attacks.hpp"

#include <array>

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/seal.hpp"
#include "carom/protocol/status.hpp"
#include "junk.hpp"

namespace carom::loadgen {
namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(Attack::count_)> kNames{
    "junk",           "every-size",     "bit-flips",     "forged-cookies",
    "wrong-versions", "wrong-ids",      "many-ports",    "forged-source",
    "status-queries", "server-updates", "server-packets"};

std::vector<std::uint8_t> copy_of(std::span<const std::uint8_t> s) {
    return {s.begin(), s.end()};
}

std::vector<std::uint8_t> request(std::mt19937_64& rng, std::uint32_t protocol) {
    flatbuffers::FlatBufferBuilder b;
    const auto pad = b.CreateVector(std::vector<std::uint8_t>(240, 0));
    const auto body = net::CreateConnectRequest(b, b.CreateString("flood"), -1, false, pad, rng());
    net::PacketBuilder p(b);
    p.add_protocol(protocol);
    p.add_body_type(net::Body::ConnectRequest);
    p.add_body(body.Union());
    net::FinishPacketBuffer(b, p.Finish());
    return copy_of({b.GetBufferPointer(), b.GetSize()});
}

std::vector<std::uint8_t> response(std::mt19937_64& rng) {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<std::uint8_t> pad(240, 0);
    const auto body = net::CreateConnectResponse(b, b.CreateString("flood"), -1, false, rng(),
                                                 b.CreateVector(pad), rng());
    return copy_of(protocol::finish_packet(b, 0, net::Body::ConnectResponse, body.Union()));
}

std::vector<std::uint8_t> clear_session_packet(std::mt19937_64& rng, std::uint32_t id);

// A session packet (input far ahead, keep-alive or disconnect) with this
// id, in the clear or sealed with keys of its own (it has no others).
std::vector<std::uint8_t> session_packet(std::mt19937_64& rng, std::uint32_t id) {
    std::vector<std::uint8_t> clear = clear_session_packet(rng, id);
    if (rng() % 2 == 0) return clear;
    protocol::SessionKeys keys;
    for (std::uint8_t& k : keys.send)
        k = static_cast<std::uint8_t>(rng());
    protocol::SessionSeal seal(keys, rng() % 4096);
    protocol::DatagramBuffer out{};
    return copy_of(seal.seal(clear, out));
}

std::vector<std::uint8_t> clear_session_packet(std::mt19937_64& rng, std::uint32_t id) {
    flatbuffers::FlatBufferBuilder b;
    switch (rng() % 3) {
        case 0: {
            protocol::ClientReport r;
            r.sequence = static_cast<std::uint32_t>(rng());
            for (std::uint32_t s = 0; s < 8; ++s)
                r.inputs.push_back(game::Input::from_bits(static_cast<std::uint8_t>(rng())));
            r.ack = rng() % 100000;
            return copy_of(protocol::encode_client_report(b, r));
        }
        case 1: {
            const auto body = net::CreateKeepAlive(b);
            return copy_of(protocol::finish_packet(b, id, net::Body::KeepAlive, body.Union()));
        }
        default: {
            const auto body = net::CreateDisconnect(b, net::DisconnectReason::quit);
            return copy_of(protocol::finish_packet(b, id, net::Body::Disconnect, body.Union()));
        }
    }
}

}  // namespace

std::string_view to_string(Attack attack) {
    const auto i = static_cast<std::size_t>(attack);
    return i < kNames.size() ? kNames[i] : "?";
}

bool parse_attack(std::string_view name, Attack& out) {
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) {
            out = static_cast<Attack>(i);
            return true;
        }
    return false;
}

std::vector<std::uint8_t> make_attack(Attack attack, std::mt19937_64& rng, std::uint64_t index) {
    switch (attack) {
        case Attack::junk:
            return make_junk(rng, index);
        case Attack::bit_flips: {
            std::vector<std::uint8_t> p;
            switch (rng() % 3) {
                case 0:
                    p = request(rng, protocol::kProtocolVersion);
                    break;
                case 1:
                    p = response(rng);
                    break;
                default:
                    p = session_packet(rng, static_cast<std::uint32_t>(rng() | 1));
            }
            for (std::uint64_t flips = 1 + rng() % 3; flips > 0; --flips)
                p[rng() % p.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
            return p;
        }
        case Attack::forged_cookies:
            return response(rng);
        case Attack::wrong_versions: {
            auto v = static_cast<std::uint32_t>(rng() % 8);
            if (v == protocol::kProtocolVersion) v = 0;
            return request(rng, v);
        }
        case Attack::many_ports:
            return request(rng, protocol::kProtocolVersion);
        case Attack::status_queries: {
            flatbuffers::FlatBufferBuilder b;
            return copy_of(
                protocol::encode_status_request(b, static_cast<std::uint32_t>(rng() % 4)));
        }
        case Attack::wrong_ids:
        case Attack::forged_source:
            return session_packet(rng, static_cast<std::uint32_t>(rng() | 1));
        case Attack::every_size:
        case Attack::server_updates:
        case Attack::server_packets:
        case Attack::count_:
            break;
    }
    return make_junk(rng, index);
}

}  // namespace carom::loadgen
