#pragma once
// The status query (schemas/PROTOCOL.md, "Status"): what a server runs, asked
// before any session. The request is padded to kStatusRequestMinBytes and the
// reply is never larger than the request that asked: a page holds as many
// rooms as fit, and a client asks again from the next room for the rest.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "carom/result.hpp"
#include "net_generated.h"

namespace carom::protocol {

inline constexpr std::size_t kStatusRequestMinBytes = 1200;

struct RoomInfo {
    std::uint32_t room = 0;
    std::string map_name;
    std::uint64_t map_hash = 0;
    std::uint32_t map_bytes = 0;
    std::uint32_t players = 0, bots = 0, slots = 0, team_size = 0;
    std::uint32_t spectators = 0, spectator_slots = 0;
    std::uint32_t score_left = 0, score_right = 0;
    std::uint32_t seconds_left = 0;
    schema::Phase phase = schema::Phase::playing;
};

struct ServerStatus {
    std::string name;
    std::string version;
    std::uint32_t protocol = 0;
    std::uint32_t rooms_total = 0;
    std::uint32_t first_room = 0;
    std::vector<RoomInfo> rooms;
    std::uint32_t clients = 0, max_clients = 0;
};

// A StatusRequest for the rooms from `first_room`, padded to kStatusRequestMinBytes.
std::span<const std::uint8_t> encode_status_request(flatbuffers::FlatBufferBuilder& builder,
                                                    std::uint32_t first_room);

// The reply: `status` with its rooms from status.first_room on, as many as
// fit in `max_bytes`. Empty when not even the head fits.
std::span<const std::uint8_t> encode_status(flatbuffers::FlatBufferBuilder& builder,
                                            const ServerStatus& status, std::size_t max_bytes);

// A verified Status to its values; names are made printable (they come from
// the network).
ServerStatus decode_status(const net::Status& status);

}  // namespace carom::protocol
