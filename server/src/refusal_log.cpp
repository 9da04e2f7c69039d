#include "refusal_log.hpp"

#include <iterator>

namespace carom::server {

std::optional<std::uint64_t> RefusalLog::admit(const std::array<std::uint8_t, 16>& ip,
                                               std::uint64_t tick) {
    auto it = entries_.find(ip);
    if (it == entries_.end()) {
        if (entries_.size() >= kMaxAddresses) {
            // Forget the addresses whose window is over; if none is, stay quiet
            // (a flood of distinct addresses is visible in the metrics instead).
            for (auto e = entries_.begin(); e != entries_.end();)
                e = tick - e->second.window_start >= kWindowTicks ? entries_.erase(e)
                                                                  : std::next(e);
            if (entries_.size() >= kMaxAddresses) return std::nullopt;
        }
        entries_.emplace(ip, Entry{tick, 0});
        return 0;
    }
    Entry& e = it->second;
    if (tick - e.window_start < kWindowTicks) {
        ++e.suppressed;
        return std::nullopt;
    }
    const std::uint64_t suppressed = e.suppressed;
    e = Entry{tick, 0};
    return suppressed;
}

}  // namespace carom::server
