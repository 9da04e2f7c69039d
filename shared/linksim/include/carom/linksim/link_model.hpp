#pragma once
// The decisions of one direction of a simulated link: for each datagram sent,
// when its copies arrive (none when lost). Time is in microseconds on the
// caller's clock; the same spec, seed and sends give the same fates.
//
// In order of application: the bandwidth cap (a datagram waits for the ones
// before it to be sent; one that would wait longer than queue_ms is dropped,
// "overflowed"), loss, then the delay: latency ± jitter, never less than the
// delay that puts it behind the datagram sent before it (a queue keeps order;
// jitter alone does not reorder). A reordered datagram is held back a further
// 20 ms + up to 2 x jitter and is left out of that ordering, so later ones
// overtake it. A duplicated one arrives a second time up to 10 ms after the
// first.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "carom/linksim/link_spec.hpp"

namespace carom::linksim {

struct LinkStats {
    std::uint64_t sent = 0;        // datagrams handed to the link
    std::uint64_t lost = 0;        // dropped by the loss draw
    std::uint64_t overflowed = 0;  // dropped at the bandwidth cap's queue
    std::uint64_t duplicated = 0;  // delivered twice
    std::uint64_t reordered = 0;   // held back to be overtaken
    std::uint64_t delivered = 0;   // copies handed over (LinkSimulator counts these)
};

class LinkModel {
  public:
    LinkModel(const LinkSpec& spec, std::uint64_t seed);

    struct Fate {
        std::array<std::int64_t, 2> arrive_us{};
        std::size_t copies = 0;  // 0 lost or overflowed, 1, or 2 duplicated
    };
    Fate send(std::int64_t now_us, std::size_t bytes);

    const LinkSpec& spec() const { return spec_; }
    const LinkStats& stats() const { return stats_; }
    LinkStats& stats() { return stats_; }

  private:
    double uniform();  // [0, 1), from the generator's top 53 bits
    bool chance(double percent) { return percent > 0.0 && uniform() * 100.0 < percent; }

    LinkSpec spec_;
    std::uint64_t state_;  // splitmix64: small, portable, seedable
    std::int64_t link_free_us_ =
        std::numeric_limits<std::int64_t>::min();  // the cap: when the last datagram is fully sent
    std::int64_t last_in_order_us_ = std::numeric_limits<std::int64_t>::min();
    LinkStats stats_;
};

}  // namespace carom::linksim
