// Fuzz entry for the client's side of the protocol: a Connection taken
// through the handshake (its Accepted gives kFuzzClientId and kFuzzSecret,
// and the rink map, which it is then given), then the input's records as
// datagrams from the server: FullStates and ServerUpdates that step its copy
// of the match, disconnects. Flagged records let 16 ms pass, with an update
// and an input (acks go out). Each ServerUpdate is sealed again with the
// session's secret before it is given, so that mutated ones still reach past
// the MAC to the decoder and the steps.
#include <vector>

#include "carom/client/connection.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/proof.hpp"
#include "carom/protocol/update.hpp"
#include "entries.hpp"

namespace carom::fuzz {
namespace {

const game::Map& rink() {
    static const game::Map map =
        maps::load_map_file(std::filesystem::path(CAROM_MAPS_DIR) / "rink.json").value();
    return map;
}

std::vector<std::uint8_t> handshake_packet(net::Body type) {
    flatbuffers::FlatBufferBuilder b;
    if (type == net::Body::Challenge) {
        const auto body = net::CreateChallenge(b, kFuzzCookie);
        const auto bytes = protocol::finish_packet(b, 0, type, body.Union());
        return {bytes.begin(), bytes.end()};
    }
    const auto body = net::CreateAcceptedDirect(
        b, kFuzzClientId, 0, 1, 1, 60, 60, "rink", protocol::map_hash(rink()), 99, 8, kFuzzSecret,
        static_cast<std::uint16_t>(2 * rink().team_size),
        static_cast<std::uint8_t>(rink().team_size),
        static_cast<std::uint32_t>(protocol::map_to_binary(rink()).size()));
    const auto bytes = protocol::finish_packet(b, kFuzzClientId, type, body.Union(), kFuzzSecret);
    return {bytes.begin(), bytes.end()};
}

// Seals a ServerUpdate for the tick the client will read it as (its 16 bits
// extended from the tick its copy holds).
void seal(std::vector<std::uint8_t>& bytes, const client::Connection& connection) {
    const client::Replica* copy = connection.replica();
    if (protocol::classify(bytes) != protocol::DatagramKind::server_update || copy == nullptr ||
        !copy->holds())
        return;
    const auto update = protocol::verify_server_update(bytes);
    if (!update) return;
    const std::uint64_t tick = protocol::extend16((*update)->head()->tick(), copy->tick());
    protocol::seal_update(bytes, protocol::update_mac_offset(bytes), kFuzzSecret, tick);
}

}  // namespace

std::uint64_t client_updates_taken(std::span<const std::uint8_t> input) {
    client::ConnectionConfig config;
    config.name = "fuzz";
    client::Connection connection(config, [](std::span<const std::uint8_t>) {});
    std::uint64_t now_ms = 0;
    connection.connect(now_ms);
    connection.on_datagram(handshake_packet(net::Body::Challenge), now_ms);
    connection.on_datagram(handshake_packet(net::Body::Accepted), now_ms);
    connection.set_map(game::CheckedMap(rink()));
    for_each_record(input, [&](const Record& r) {
        std::vector<std::uint8_t> bytes(r.bytes.begin(), r.bytes.end());
        seal(bytes, connection);
        connection.on_datagram(bytes, now_ms);
        if ((r.flags & kRecordTick) != 0) {
            now_ms += 16;
            connection.update(now_ms);
            connection.send_input(game::Input::idle(), now_ms);
            (void)connection.take_events();
        }
    });
    return connection.stats().states_taken;
}

int client_updates(std::span<const std::uint8_t> input) {
    (void)client_updates_taken(input);
    return 0;
}

}  // namespace carom::fuzz
