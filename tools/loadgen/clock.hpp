#pragma once
// Time since the run started: the only clock the clients see.
#include <chrono>
#include <cstdint>

namespace carom::loadgen {

struct RunClock {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    std::int64_t now_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - start)
            .count();
    }
    std::uint64_t now_ms() const {
        const auto elapsed = std::chrono::steady_clock::now() - start;
        return static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count());
    }
};

}  // namespace carom::loadgen
