#pragma once
// The status query over the client's socket: the server's rooms before any
// session, for --list and the room screen.
#include <cstdint>

#include "carom/protocol/status.hpp"
#include "carom/result.hpp"
#include "udp_link.hpp"

namespace carom::app {

// Asks until every room is listed or `timeout_ms` passed (or a signal came:
// `stop` returns true).
Result<protocol::ServerStatus> query_status(UdpLink& link, std::uint64_t timeout_ms,
                                            bool (*stop)());

}  // namespace carom::app
