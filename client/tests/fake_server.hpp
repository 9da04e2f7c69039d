#pragma once
// Test helpers: server packets built by hand, and a Connection whose sent
// datagrams are captured and can be read back as verified Packets.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "carom/client/connection.hpp"
#include "carom/protocol/net.hpp"

namespace carom::client::test {

using Bytes = std::vector<std::uint8_t>;

inline Bytes copy_of(std::span<const std::uint8_t> bytes) {
    return {bytes.begin(), bytes.end()};
}

inline Bytes challenge(std::uint64_t cookie) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateChallenge(b, cookie);
    return copy_of(protocol::finish_packet(b, 0, net::Body::Challenge, body.Union()));
}

struct AcceptedFields {
    std::uint32_t client_id = 42;
    std::uint32_t room = 3;
    std::int32_t slot = 1;
    std::uint8_t team = 1;
    std::uint32_t tick_rate_hz = 60;
    std::uint32_t snapshot_rate_hz = 20;
    std::string map_name = "rink";
    std::uint64_t map_hash = 0x1234'5678'9abc'def0;
    std::uint64_t seed = 99;
    std::uint32_t input_redundancy = 8;
    std::uint64_t secret = 0;  // Accepted.session_secret (protocol 4)
};

inline Bytes accepted(const AcceptedFields& a) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateAcceptedDirect(
        b, a.client_id, a.room, a.slot, a.team, a.tick_rate_hz, a.snapshot_rate_hz,
        a.map_name.c_str(), a.map_hash, a.seed, a.input_redundancy, a.secret);
    return copy_of(
        protocol::finish_packet(b, a.client_id, net::Body::Accepted, body.Union(), a.secret));
}

inline Bytes denied(net::DenyReason reason, const std::string& detail) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateDeniedDirect(b, reason, detail.c_str());
    return copy_of(protocol::finish_packet(b, 0, net::Body::Denied, body.Union()));
}

inline Bytes server_disconnect(net::DisconnectReason reason, const std::string& detail,
                               std::uint64_t secret = 0) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateDisconnectDirect(b, reason, detail.c_str());
    return copy_of(protocol::finish_packet(b, 42, net::Body::Disconnect, body.Union(), secret));
}

// A frame of `disks` disks, each at (tick + i, i) so that every tick differs.
inline protocol::Frame frame(std::uint64_t tick, std::size_t disks) {
    protocol::Frame f;
    f.tick = tick;
    f.ticks_left = 1000 - tick;
    f.active_mask = 0b11;
    for (std::size_t i = 0; i < disks; ++i) {
        const double x = static_cast<double>(tick + i);
        f.disks.push_back(protocol::quantise({x, static_cast<double>(i)}, {1.0, -1.0}));
    }
    return f;
}

inline Bytes snapshot(const protocol::Frame& f, const protocol::Frame* baseline,
                      protocol::SnapshotExtras extras = {}) {
    flatbuffers::FlatBufferBuilder b;
    return copy_of(protocol::encode_snapshot(b, 42, f, baseline, extras));
}

// A Connection with everything it sends kept in `sent`.
struct Harness {
    std::vector<Bytes> sent;
    Connection connection;

    explicit Harness(ConnectionConfig config = {})
        : connection(std::move(config), [this](std::span<const std::uint8_t> bytes) {
              sent.push_back(copy_of(bytes));
          }) {}

    void receive(const Bytes& bytes, std::uint64_t now_ms) {
        connection.on_datagram(bytes, now_ms);
    }

    // The last datagram sent, verified; fails the test when it is not a Packet.
    const net::Packet& last_sent() const {
        REQUIRE(!sent.empty());
        const protocol::VerifiedPacket v = protocol::verify_packet(sent.back());
        REQUIRE(v.packet != nullptr);
        return *v.packet;
    }

    // Runs the handshake to connected with the given Accepted fields.
    void connect(const AcceptedFields& fields = {}, std::uint64_t now_ms = 0) {
        connection.connect(now_ms);
        receive(challenge(7), now_ms);
        receive(accepted(fields), now_ms);
        REQUIRE(connection.state() == State::connected);
    }
};

}  // namespace carom::client::test
