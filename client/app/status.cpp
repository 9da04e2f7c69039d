#include "status.hpp"

#include <poll.h>
#include <unistd.h>

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

std::optional<play::RoomChoice> pick_room(terminal::Terminal& terminal, play::RoomPicker& picker,
                                          UdpLink& link, const std::string& server,
                                          std::uint64_t timeout_ms, bool (*stop)()) {
    std::string note;
    for (;;) {
        terminal.draw(picker.draw(terminal.width(), terminal.height(), server, note));
        pollfd fd{STDIN_FILENO, POLLIN, 0};
        poll(&fd, 1, 200);
        if (stop()) return std::nullopt;
        while (const auto key = terminal.key()) {
            if (key->action == terminal::Key::Action::release) continue;
            using Action = play::RoomPicker::Action;
            switch (picker.on_key(*key)) {
                case Action::join:
                    return picker.choice();
                case Action::spectate: {
                    play::RoomChoice c = picker.choice();
                    c.spectate = true;
                    return c;
                }
                case Action::refresh: {
                    auto status = query_status(link, timeout_ms, stop);
                    if (status) {
                        picker.set_status(std::move(*status));
                        note.clear();
                    } else {
                        note = "refresh failed: " + status.error().message;
                    }
                    break;
                }
                case Action::quit:
                    return std::nullopt;
                case Action::none:
                    break;
            }
        }
    }
}

}  // namespace carom::app
