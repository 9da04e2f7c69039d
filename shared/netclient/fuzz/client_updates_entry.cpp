// Fuzz entry for the client's side of the protocol: a Connection taken
// through the handshake (its Accepted gives kFuzzClientId and the rink map,
// which it is then given), then the input's records as datagrams from the
// server: FullStates and ServerUpdates that step its copy of the match,
// disconnects. Flagged records let 16 ms pass, with an update and an input
// (acks go out). Each record is sealed with the session's keys before it is
// given (bit 2 of the flags: as it is), so that mutated ones still reach
// past the seal to the decoder and the steps.
#include <vector>

#include "carom/client/connection.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/update.hpp"
#include "entries.hpp"
#include "server_end.hpp"

namespace carom::fuzz {
namespace {

const game::Map& rink() {
    static const game::Map map =
        maps::load_map_file(std::filesystem::path(CAROM_MAPS_DIR) / "rink.json").value();
    return map;
}

std::vector<std::uint8_t> accepted() {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateAcceptedDirect(
        b, kFuzzClientId, 0, 1, 1, 60, 60, "rink", protocol::map_hash(rink()), 99, 8,
        static_cast<std::uint16_t>(2 * rink().team_size),
        static_cast<std::uint8_t>(rink().team_size),
        static_cast<std::uint32_t>(protocol::map_to_binary(rink()).size()));
    const auto bytes = protocol::finish_packet(b, kFuzzClientId, net::Body::Accepted, body.Union());
    return {bytes.begin(), bytes.end()};
}

}  // namespace

std::uint64_t client_updates_taken(std::span<const std::uint8_t> input) {
    client::ConnectionConfig config;
    config.name = "fuzz";
    ServerEnd server;
    client::Connection connection(config, server.sender());
    std::uint64_t now_ms = 0;
    connection.connect(now_ms);
    connection.on_datagram(server.challenge(kFuzzCookie), now_ms);
    if (!server.agree()) return 0;
    connection.on_datagram(server.sealed(accepted()), now_ms);
    connection.set_map(game::CheckedMap(rink()));
    for_each_record(input, [&](const Record& r) {
        const std::vector<std::uint8_t> bytes =
            (r.flags & kRecordAsItIs) != 0
                ? std::vector<std::uint8_t>(r.bytes.begin(), r.bytes.end())
                : server.sealed(r.bytes);
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
