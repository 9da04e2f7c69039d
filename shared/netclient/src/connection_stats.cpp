#include "carom/client/connection_stats.hpp"

#include <numeric>

namespace carom::client {

std::uint64_t ConnectionStats::invalid_total() const {
    return std::accumulate(invalid.begin(), invalid.end(), std::uint64_t{0});
}

std::uint64_t ConnectionStats::forged_total() const {
    return unasked + unsealed +
           std::accumulate(refused_sealed.begin(), refused_sealed.end(), std::uint64_t{0});
}

double ConnectionStats::loss_estimate() const {
    // An update that arrives after a newer one is useless to the client, so
    // it stays counted as missed.
    const std::uint64_t expected = states_taken + updates_missed;
    if (expected == 0) return 0.0;
    return static_cast<double>(updates_missed) / static_cast<double>(expected);
}

}  // namespace carom::client
