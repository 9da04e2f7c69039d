#include "carom/linksim/link_model.hpp"

#include <algorithm>
#include <cmath>

namespace carom::linksim {
namespace {

std::int64_t to_us(double ms) {
    return static_cast<std::int64_t>(std::llround(ms * 1000.0));
}

constexpr double kReorderHoldMs = 20.0;
constexpr double kDuplicateSpreadMs = 10.0;

}  // namespace

LinkModel::LinkModel(const LinkSpec& spec, std::uint64_t seed) : spec_(spec), state_(seed) {}

double LinkModel::uniform() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

LinkModel::Fate LinkModel::send(std::int64_t now_us, std::size_t bytes) {
    ++stats_.sent;
    Fate fate;
    std::int64_t leaves_us = now_us;
    if (spec_.rate_kbit > 0.0) {
        const std::int64_t start_us = std::max(now_us, link_free_us_);
        if (start_us - now_us > to_us(spec_.queue_ms)) {
            ++stats_.overflowed;
            return fate;
        }
        // bytes * 8 bits at rate_kbit * 1000 bits/s, in microseconds.
        const double transmit_us = static_cast<double>(bytes) * 8000.0 / spec_.rate_kbit;
        link_free_us_ = start_us + static_cast<std::int64_t>(std::ceil(transmit_us));
        leaves_us = link_free_us_;
    }
    if (chance(spec_.loss_percent)) {
        ++stats_.lost;
        return fate;
    }
    const double delay_ms = spec_.latency_ms + spec_.jitter_ms * (2.0 * uniform() - 1.0);
    std::int64_t arrive_us = leaves_us + to_us(std::max(delay_ms, 0.0));
    if (chance(spec_.reorder_percent)) {
        ++stats_.reordered;
        arrive_us += to_us(kReorderHoldMs + 2.0 * spec_.jitter_ms * uniform());
    } else {
        arrive_us = std::max(arrive_us, last_in_order_us_);
        last_in_order_us_ = arrive_us;
    }
    fate.arrive_us[fate.copies++] = arrive_us;
    if (chance(spec_.duplicate_percent)) {
        ++stats_.duplicated;
        fate.arrive_us[fate.copies++] = arrive_us + to_us(kDuplicateSpreadMs * uniform());
    }
    return fate;
}

}  // namespace carom::linksim
