#pragma once
// Refused handshakes at info level without letting one address flood the log:
// per source IP, the first refusal of a window is logged, the rest of that
// window are counted and reported with the next line for that IP. Time is
// the server's tick, so tests need no clock.
#include <array>
#include <cstdint>
#include <map>
#include <optional>

namespace carom::server {

class RefusalLog {
  public:
    static constexpr std::uint64_t kWindowTicks = 60 * 10;  // one line per IP per 10 s
    static constexpr std::size_t kMaxAddresses = 4096;      // bounded under a spoofed flood

    // Whether to log a refusal from `ip` at `tick`; if so, how many refusals
    // from it were not logged since its last line.
    std::optional<std::uint64_t> admit(const std::array<std::uint8_t, 16>& ip, std::uint64_t tick);

  private:
    struct Entry {
        std::uint64_t window_start = 0;
        std::uint64_t suppressed = 0;
    };
    std::map<std::array<std::uint8_t, 16>, Entry> entries_;
};

}  // namespace carom::server
