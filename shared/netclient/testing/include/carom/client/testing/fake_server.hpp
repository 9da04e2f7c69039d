#pragma once
// Test helpers: server packets built by hand, a room whose match the test
// steps and whose full states and updates (FullStates, ServerUpdates) it sends, and a
// Connection whose sent datagrams are captured and can be read back.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "carom/client/connection.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/protocol/client_report.hpp"
#include "carom/protocol/full_state.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/proof.hpp"
#include "carom/protocol/update.hpp"

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
    std::uint32_t update_rate_hz = 20;
    std::string map_name = "rink";
    std::uint64_t map_hash = 0x1234'5678'9abc'def0;
    std::uint64_t seed = 99;
    std::uint32_t input_redundancy = 8;
    std::uint64_t secret = 0;     // Accepted.session_secret (protocol 4)
    std::uint32_t map_bytes = 0;  // protocol 6
};

inline Bytes accepted(const AcceptedFields& a) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateAcceptedDirect(
        b, a.client_id, a.room, a.slot, a.team, a.tick_rate_hz, a.update_rate_hz,
        a.map_name.c_str(), a.map_hash, a.seed, a.input_redundancy, a.secret, 4, 2, a.map_bytes);
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

inline game::Map shipped_map(const char* name) {
    const std::filesystem::path dirs[] = {CAROM_MAPS_DIR};
    return maps::find_map(name, dirs).value();
}

// A room of a shipped map as a server keeps it for one client: its match,
// stepped by the test, and the full states and updates it would send that client.
class FakeRoom {
  public:
    explicit FakeRoom(const char* map_name = "rink", std::uint64_t secret = 0,
                      std::optional<game::Slot> client_slot = 1)
        : map_(shipped_map(map_name)),
          match_(map_, 99),
          secret_(secret),
          client_slot_(client_slot) {
        for (game::Slot s = 0; s < match_.slot_count(); ++s) {
            std::string name = "p";
            name += std::to_string(s);
            match_.join(s, name);
        }
        sequences_[tick_] = 0;
    }

    const game::Map& map() const { return map_; }
    const game::Match& match() const { return match_; }
    std::uint64_t tick() const { return tick_; }
    std::uint64_t map_hash() const { return protocol::map_hash(map_); }

    // One server tick with these inputs (one per slot); `applied` is the
    // client's newest input the server applied by it.
    void step(std::span<const game::Input> inputs, std::uint32_t applied = 0) {
        ++tick_;
        std::vector<protocol::InputChange> changes;
        for (game::Slot s = 0; s < match_.slot_count(); ++s)
            if (match_.active(s) && inputs[s] != match_.last_input(s))
                changes.push_back(
                    {0, s, protocol::InputDelta::between(match_.last_input(s), inputs[s])});
        match_.step(inputs);
        changes_[tick_] = changes;
        sequences_[tick_] = applied;
    }
    void step_idle(int ticks = 1) {
        const std::vector<game::Input> idle(match_.slot_count());
        for (int i = 0; i < ticks; ++i)
            step(idle, sequences_[tick_]);
    }

    Bytes full_state(std::uint32_t client_id = 42) const {
        protocol::RoomState s;
        s.tick = tick_;
        s.state_hash = match_.state_hash();
        s.last_input_sequence = sequences_.at(tick_);
        s.match_seed = match_.seed();
        s.match_start_tick = tick_ - match_.tick();
        s.match = match_.save();
        s.bots.assign(match_.slot_count(), false);
        s.bots[0] = true;
        std::vector<Bytes> parts;
        flatbuffers::FlatBufferBuilder b;
        protocol::encode_full_state(b, client_id, secret_, s, [&](std::span<const std::uint8_t> d) {
            parts.push_back(copy_of(d));
        });
        REQUIRE(parts.size() == 1);
        return parts.front();
    }
    // The update of (baseline, tick], sealed with the room's secret.
    Bytes update(std::uint64_t baseline) const { return update_with(baseline, {}, {}); }
    // The same with `mac` in place of the seal: what a forger can send.
    Bytes forged_update(std::uint64_t baseline, std::uint32_t mac) const {
        return update_with(baseline, mac, {});
    }
    // Sealed, but with `state` for the state check: what a copy that drifted sees.
    Bytes drifted_update(std::uint64_t baseline, std::uint16_t state) const {
        return update_with(baseline, {}, state);
    }

  private:
    Bytes update_with(std::uint64_t baseline, std::optional<std::uint32_t> mac,
                      std::optional<std::uint16_t> state) const {
        protocol::Update u;
        u.tick = tick_;
        u.baseline = baseline;
        u.state = state.value_or(protocol::state_check(match_.state_hash()));
        u.sequence_advance = sequences_.at(tick_) - sequences_.at(baseline);
        for (std::uint64_t t = baseline + 1; t <= tick_; ++t)
            for (protocol::InputChange c : changes_.at(t)) {
                c.tick = t;
                u.inputs.push_back(c);
            }
        flatbuffers::FlatBufferBuilder b;
        Bytes bytes =
            copy_of(protocol::encode_update(b, u, {match_.slot_count(), client_slot_.has_value()}));
        const std::size_t mac_at = protocol::update_mac_offset(bytes);
        protocol::seal_update(bytes, mac_at, secret_, tick_);
        if (mac)
            for (std::size_t i = 0; i < 4; ++i)
                bytes[mac_at + i] = static_cast<std::uint8_t>(*mac >> (8 * i));
        return bytes;
    }

    game::Map map_;
    game::Match match_;
    std::uint64_t secret_;
    std::optional<game::Slot> client_slot_;
    std::uint64_t tick_ = 100;
    std::map<std::uint64_t, std::vector<protocol::InputChange>> changes_;
    std::map<std::uint64_t, std::uint32_t> sequences_;
};

// A Connection with everything it sends kept in `sent`.
struct Harness {
    std::vector<Bytes> sent;
    Connection connection;

    explicit Harness(ConnectionConfig config = {}, MapStore* maps = nullptr)
        : connection(
              std::move(config),
              [this](std::span<const std::uint8_t> bytes) { sent.push_back(copy_of(bytes)); },
              maps) {}

    void receive(const Bytes& bytes, std::uint64_t now_ms) {
        connection.on_datagram(bytes, now_ms);
    }

    // The last datagram sent, verified; fails the test when it is not a Packet.
    const net::Packet& last_sent() const {
        REQUIRE(!sent.empty());
        const auto v = protocol::verify_packet(sent.back());
        REQUIRE(v.ok());
        return **v;
    }
    // The last datagram sent as a ClientUpdate, read as the server reads it
    // (its 16-bit fields near `tick` and `last_sequence`).
    protocol::ClientReport last_report(std::uint64_t tick = 1000,
                                       std::uint32_t last_sequence = 0) const {
        REQUIRE(!sent.empty());
        const auto v = protocol::verify_client_update(sent.back());
        REQUIRE(v.ok());
        const auto r = protocol::decode_client_report(**v, tick, last_sequence);
        REQUIRE_MESSAGE(r.ok(), r.error().message);
        return *r;
    }

    // Runs the handshake to connected with the given Accepted fields.
    void connect(const AcceptedFields& fields = {}, std::uint64_t now_ms = 0) {
        connection.connect(now_ms);
        receive(challenge(7), now_ms);
        receive(accepted(fields), now_ms);
        REQUIRE(connection.state() == State::connected);
    }
    // Connected to `room` (its map given), as the client in its slot (or a spectator).
    void join(const FakeRoom& room, std::uint64_t secret, std::int32_t slot = 1) {
        AcceptedFields f;
        f.secret = secret;
        f.slot = slot;
        f.map_hash = room.map_hash();
        connect(f);
        REQUIRE(connection.set_map(room.map()));
    }
};

}  // namespace carom::client::test
