#include "status.hpp"

#include <poll.h>

#include <chrono>

#include "carom/client/status_query.hpp"

namespace carom::app {

Result<protocol::ServerStatus> query_status(UdpLink& link, std::uint64_t timeout_ms,
                                            bool (*stop)()) {
    const auto start = std::chrono::steady_clock::now();
    const auto now_ms = [start] {
        return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::steady_clock::now() - start)
                                              .count());
    };
    client::StatusQuery query({.retry_ms = 250, .timeout_ms = timeout_ms},
                              [&link](std::span<const std::uint8_t> b) { link.send(b); });
    query.start(now_ms());
    while (!query.done()) {
        if (stop()) return fail("stopped by a signal");
        link.drain([&](std::span<const std::uint8_t> d) { query.on_datagram(d, now_ms()); });
        query.update(now_ms());
        pollfd fd{link.native_handle(), POLLIN, 0};
        poll(&fd, 1, 20);
    }
    return query.result();
}

}  // namespace carom::app
