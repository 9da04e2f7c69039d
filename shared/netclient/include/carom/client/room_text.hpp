#pragma once
// A server's rooms in words, as the status query lists them: the table of
// `carom-client --list` and its room screen, and the JSON of `--json`,
// libcarom's carom_status_json and the play page's room list.
#include <string>

#include "carom/protocol/status.hpp"

namespace carom::client {

// "name (server, carom 0.1.0, protocol 7): 4 rooms, 8 of 256 clients";
// `server` is the address as the user gave it.
std::string room_title(const protocol::ServerStatus& status, const std::string& server);
// The column heads over room_row()'s columns.
std::string room_header();
std::string room_row(const protocol::RoomInfo& room);
// The title, the header and a row a room, a line each.
std::string room_table(const protocol::ServerStatus& status, const std::string& server);
// {"server": ..., "name": ..., "rooms": [{"room": 0, "map": ..., "time": "2:11", ...}], ...}
std::string room_json(const protocol::ServerStatus& status, const std::string& server);

}  // namespace carom::client
