#pragma once
// The options of `carom-bench server`: which parts run, and their sizes.
#include <cstdint>
#include <string>
#include <vector>

namespace carom::bench {

struct ServerOptions {
    std::vector<std::uint32_t> clients{64, 128, 256, 512, 768, 1024};
    std::uint32_t ticks = 600;
    double latency_seconds = 10;
    bool json = false;
    std::vector<std::string> only;  // empty: every part
    double link_seconds = 60;
    std::vector<std::uint64_t> seeds{1, 2, 3};
    std::vector<double> rtts_ms{0, 50, 100, 200};
    std::vector<double> losses_percent{0, 5, 10};
    std::vector<std::string> link_maps{"arena", "rink", "stadium"};
};

}  // namespace carom::bench
