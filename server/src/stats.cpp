#include "stats.hpp"

#include <algorithm>
#include <numeric>

namespace carom::server {

const char* to_string(Drop drop) {
    switch (drop) {
        case Drop::unpadded_request:
            return "unpadded request";
        case Drop::unknown_sender:
            return "unknown sender";
        case Drop::wrong_client_id:
            return "wrong client id";
        case Drop::unexpected_type:
            return "unexpected type";
        case Drop::unsealed:
            return "unsealed";
        case Drop::rate_limited:
            return "rate limited";
        case Drop::wrong_map:
            return "wrong map";
        case Drop::bad_tag:
            return "bad tag";
        case Drop::old_sequence:
            return "old sequence";
        case Drop::replayed_sequence:
            return "replayed sequence";
        case Drop::far_ahead_sequence:
            return "far-ahead sequence";
        case Drop::bad_hello:
            return "bad hello";
        case Drop::replayed_handshake:
            return "replayed handshake";
        case Drop::count_:
            break;
    }
    return "?";
}

std::uint64_t Stats::invalid_total() const {
    return std::accumulate(invalid.begin(), invalid.end(), std::uint64_t{0}) +
           std::accumulate(dropped.begin(), dropped.end(), std::uint64_t{0});
}

double TickTimes::percentile(double p) const {
    if (samples_.empty()) return 0.0;
    std::vector<double> sorted = samples_;
    const auto k = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
    return sorted[k];
}

double TickTimes::max() const {
    return samples_.empty() ? 0.0 : *std::max_element(samples_.begin(), samples_.end());
}

}  // namespace carom::server
