#include "carom/client/host_port.hpp"

#include <charconv>

namespace carom::client {

Result<HostPort> parse_host_port(std::string_view text) {
    // Appended rather than "'" + string: g++ 12 -O3 warns falsely (-Wrestrict) on that.
    std::string quoted(1, '\'');
    quoted.append(text).push_back('\'');
    std::string_view host;
    std::string_view port;
    if (text.starts_with('[')) {
        const std::size_t close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return fail(quoted + " is not [IPV6]:PORT");
        host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else {
        const std::size_t colon = text.rfind(':');
        if (colon == std::string_view::npos) return fail(quoted + " has no :PORT");
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        // An IPv6 literal without brackets is ambiguous ("::1:7777").
        if (host.find(':') != std::string_view::npos)
            return fail(quoted + ": write IPv6 addresses in brackets, [::1]:7777");
    }
    if (host.empty()) return fail(quoted + " has no host");
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || value == 0 ||
        value > 65535)
        return fail(quoted + ": port must be 1 to 65535");
    return HostPort{std::string(host), static_cast<std::uint16_t>(value)};
}

}  // namespace carom::client
