#include "carom/client/room_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace carom::client {
namespace {

std::string phase_name(schema::Phase phase) {
    switch (phase) {
        case schema::Phase::playing:
            return "playing";
        case schema::Phase::goal_pause:
            return "goal";
        case schema::Phase::finished:
            return "finished";
    }
    return "?";
}

std::string clock(std::uint32_t seconds) {
    return fmt::format("{}:{:02}", seconds / 60, seconds % 60);
}

}  // namespace

std::string room_title(const protocol::ServerStatus& s, const std::string& server) {
    return fmt::format("{} ({}, carom {}, protocol {}): {} room{}, {} of {} clients", s.name,
                       server, s.version, s.protocol, s.rooms_total, s.rooms_total == 1 ? "" : "s",
                       s.clients, s.max_clients);
}

std::string room_header() {
    return "ROOM  MAP                       PLAYERS  BOTS  WATCHING  SCORE  TIME    PHASE";
}

std::string room_row(const protocol::RoomInfo& r) {
    return fmt::format("{:>4}  {:<24.24}  {:>7}  {:>4}  {:>8}  {:>5}  {:>6}  {}", r.room,
                       r.map_name, fmt::format("{}/{}", r.players, r.slots), r.bots,
                       fmt::format("{}/{}", r.spectators, r.spectator_slots),
                       fmt::format("{}-{}", r.score_left, r.score_right), clock(r.seconds_left),
                       phase_name(r.phase));
}

std::string room_table(const protocol::ServerStatus& status, const std::string& server) {
    std::string out = room_title(status, server) + "\n" + room_header() + "\n";
    for (const protocol::RoomInfo& r : status.rooms)
        out += room_row(r) + "\n";
    return out;
}

std::string room_json(const protocol::ServerStatus& s, const std::string& server) {
    nlohmann::json rooms = nlohmann::json::array();
    for (const protocol::RoomInfo& r : s.rooms)
        rooms.push_back({{"room", r.room},
                         {"map", r.map_name},
                         {"map_hash", fmt::format("{:016x}", r.map_hash)},
                         {"map_bytes", r.map_bytes},
                         {"players", r.players},
                         {"bots", r.bots},
                         {"slots", r.slots},
                         {"team_size", r.team_size},
                         {"spectators", r.spectators},
                         {"spectator_slots", r.spectator_slots},
                         {"score", {r.score_left, r.score_right}},
                         {"seconds_left", r.seconds_left},
                         {"time", clock(r.seconds_left)},
                         {"phase", phase_name(r.phase)}});
    const nlohmann::json out = {{"server", server},
                                {"name", s.name},
                                {"version", s.version},
                                {"protocol", s.protocol},
                                {"clients", s.clients},
                                {"max_clients", s.max_clients},
                                {"first_room", s.first_room},
                                {"rooms_total", s.rooms_total},
                                {"rooms", rooms}};
    return out.dump(2) + "\n";
}

}  // namespace carom::client
