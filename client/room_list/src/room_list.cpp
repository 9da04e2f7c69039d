#include "carom/play/room_list.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace carom::play {
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

std::string title(const protocol::ServerStatus& s, const std::string& server) {
    return fmt::format("{} ({}, carom {}, protocol {}): {} room{}, {} of {} clients", s.name,
                       server, s.version, s.protocol, s.rooms_total, s.rooms_total == 1 ? "" : "s",
                       s.clients, s.max_clients);
}

constexpr const char* kHeader =
    "ROOM  MAP                       PLAYERS  BOTS  WATCHING  SCORE  TIME    PHASE";

std::string row(const protocol::RoomInfo& r) {
    return fmt::format("{:>4}  {:<24.24}  {:>7}  {:>4}  {:>8}  {:>5}  {:>6}  {}", r.room,
                       r.map_name, fmt::format("{}/{}", r.players, r.slots), r.bots,
                       fmt::format("{}/{}", r.spectators, r.spectator_slots),
                       fmt::format("{}-{}", r.score_left, r.score_right), clock(r.seconds_left),
                       phase_name(r.phase));
}

}  // namespace

std::string room_table(const protocol::ServerStatus& status, const std::string& server) {
    std::string out = title(status, server) + "\n" + kHeader + "\n";
    for (const protocol::RoomInfo& r : status.rooms)
        out += row(r) + "\n";
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
                         {"phase", phase_name(r.phase)}});
    const nlohmann::json out = {{"server", server},     {"name", s.name},
                                {"version", s.version}, {"protocol", s.protocol},
                                {"clients", s.clients}, {"max_clients", s.max_clients},
                                {"rooms", rooms}};
    return out.dump(2) + "\n";
}

void RoomPicker::set_status(protocol::ServerStatus status) {
    status_ = std::move(status);
    if (!status_.rooms.empty())
        selected_ = std::min<std::uint32_t>(selected_,
                                            static_cast<std::uint32_t>(status_.rooms.size() - 1));
}

RoomPicker::Action RoomPicker::on_key(const terminal::Key& key) {
    using Kind = terminal::Key::Kind;
    const auto last =
        static_cast<std::uint32_t>(std::max<std::size_t>(status_.rooms.size(), 1) - 1);
    switch (key.kind) {
        case Kind::up:
            selected_ = selected_ > 0 ? selected_ - 1 : 0;
            return Action::none;
        case Kind::down:
            selected_ = std::min(selected_ + 1, last);
            return Action::none;
        case Kind::home:
            selected_ = 0;
            return Action::none;
        case Kind::end:
            selected_ = last;
            return Action::none;
        case Kind::character:
            switch (key.ch) {
                case '\n':
                case '\r':
                    return status_.rooms.empty() ? Action::none : Action::join;
                case 's':
                case 'S':
                    return status_.rooms.empty() ? Action::none : Action::spectate;
                case 'r':
                case 'R':
                    return Action::refresh;
                case 'q':
                case 'Q':
                    return Action::quit;
                default:
                    return Action::none;
            }
        default:
            return Action::none;
    }
}

RoomChoice RoomPicker::choice() const {
    RoomChoice c;
    if (selected_ < status_.rooms.size()) c.room = status_.rooms[selected_].room;
    return c;
}

render::Grid RoomPicker::draw(int width, int height, const std::string& server,
                              const std::string& note) const {
    render::Grid grid(width, height);
    grid.put(0, 0, title(status_, server), render::Ink::text);
    grid.put(2, 2, kHeader, render::Ink::text);
    // Rows between the header and the help; the selected one always shown.
    const int first_row = 3;
    const int rows = std::max(height - first_row - 3, 1);
    const int top = std::max(0, static_cast<int>(selected_) - rows + 1);
    for (int i = 0; i < rows && top + i < static_cast<int>(status_.rooms.size()); ++i) {
        const auto index = static_cast<std::size_t>(top + i);
        const bool chosen = index == selected_;
        grid.put(0, first_row + i, chosen ? ">" : " ", render::Ink::alert);
        grid.put(2, first_row + i, row(status_.rooms[index]),
                 chosen ? render::Ink::own : render::Ink::text);
    }
    grid.put(0, height - 2, note, render::Ink::alert);
    grid.put(0, height - 1, "Up/Down choose  Enter play  s spectate  r refresh  q quit",
             render::Ink::text);
    return grid;
}

}  // namespace carom::play
