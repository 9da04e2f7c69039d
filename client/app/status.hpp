#pragma once
// The server's rooms over the client's socket, before any session: the
// status query (for --list and the room screen) and the room screen itself.
#include <cstdint>
#include <optional>
#include <string>

#include "carom/play/room_list.hpp"
#include "carom/protocol/status.hpp"
#include "carom/result.hpp"
#include "carom/terminal/terminal.hpp"
#include "udp_link.hpp"

namespace carom::app {

// Asks until every room is listed or `timeout_ms` passed (or a signal came:
// `stop` returns true).
Result<protocol::ServerStatus> query_status(UdpLink& link, std::uint64_t timeout_ms,
                                            bool (*stop)());

// The room screen: the rooms in `picker` until one is chosen (`r` asks the
// server again); nullopt when the user quits or `stop` says a signal came.
std::optional<play::RoomChoice> pick_room(terminal::Terminal& terminal, play::RoomPicker& picker,
                                          UdpLink& link, const std::string& server,
                                          std::uint64_t timeout_ms, bool (*stop)());

}  // namespace carom::app
