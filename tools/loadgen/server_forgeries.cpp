#include "server_forgeries.hpp"

#include "carom/protocol/packet.hpp"
#include "carom/protocol/seal.hpp"
#include "carom/protocol/update.hpp"

namespace carom::loadgen {
namespace {

std::vector<std::uint8_t> copy_of(std::span<const std::uint8_t> s) {
    return {s.begin(), s.end()};
}

// In the clear or sealed with keys of its own (the forger has no others).
std::vector<std::uint8_t> forged(std::mt19937_64& rng, std::span<const std::uint8_t> clear) {
    if (rng() % 2 == 0) return copy_of(clear);
    protocol::SessionKeys keys;
    for (std::uint8_t& k : keys.send)
        k = static_cast<std::uint8_t>(rng());
    protocol::SessionSeal seal(keys, rng() % 4096);
    protocol::DatagramBuffer out{};
    return copy_of(seal.seal(clear, out));
}

}  // namespace

std::vector<std::uint8_t> forged_update(std::mt19937_64& rng, std::uint64_t tick) {
    protocol::Update u;
    u.tick = std::max<std::uint64_t>(tick, 8);
    u.baseline = u.tick - 1 - rng() % 4;
    u.state = static_cast<std::uint16_t>(rng());
    u.sequence_advance = static_cast<std::uint32_t>(u.tick - u.baseline);
    for (std::uint64_t t = u.baseline + 1; t <= u.tick; ++t)
        if (rng() % 2 == 0)
            u.inputs.push_back(
                {t,
                 static_cast<game::Slot>(rng() % 8),
                 {protocol::InputDelta::Kind::literal, static_cast<std::uint8_t>(rng() % 64)}});
    flatbuffers::FlatBufferBuilder b;
    return forged(rng, protocol::encode_update(b, u, {8, true}));
}

std::vector<std::uint8_t> forged_server_packet(std::mt19937_64& rng, std::uint64_t tick) {
    flatbuffers::FlatBufferBuilder b;
    const auto id = static_cast<std::uint32_t>(rng() | 1);
    switch (rng() % 5) {
        case 0: {
            const auto body = net::CreateDisconnect(b, net::DisconnectReason::kicked);
            return forged(rng, protocol::finish_packet(b, id, net::Body::Disconnect, body.Union()));
        }
        case 1: {
            const auto body = net::CreateKeepAlive(b);
            return forged(rng, protocol::finish_packet(b, id, net::Body::KeepAlive, body.Union()));
        }
        case 2: {
            net::FullStateBuilder f(b);
            f.add_tick(tick + rng() % 60);
            f.add_state_hash(rng());
            const auto body = f.Finish();
            return forged(rng, protocol::finish_packet(b, id, net::Body::FullState, body.Union()));
        }
        case 3: {
            const std::vector<std::uint8_t> data(1024, static_cast<std::uint8_t>(rng()));
            const auto body = net::CreateMapChunkDirect(b, rng(), 0, &data);
            return forged(rng, protocol::finish_packet(b, id, net::Body::MapChunk, body.Union()));
        }
        default: {
            const auto body =
                net::CreateAcceptedDirect(b, id, 0, 0, 0, 60, 60, "arena", rng(), rng(), 8);
            return forged(rng, protocol::finish_packet(b, id, net::Body::Accepted, body.Union()));
        }
    }
}

}  // namespace carom::loadgen
