#pragma once
// "HOST:PORT" as a user types it: a hostname, an IPv4 literal, or an IPv6
// literal in brackets ("[::1]:7777").
#include <cstdint>
#include <string>
#include <string_view>

#include "carom/result.hpp"

namespace carom::client {

struct HostPort {
    std::string host;  // without brackets
    std::uint16_t port = 0;
};

// The host and port (1 to 65535); or why the text is not HOST:PORT.
Result<HostPort> parse_host_port(std::string_view text);

}  // namespace carom::client
