#include "server/delta_bits.hpp"

#include <bit>

namespace carom::bench {
namespace {

class Reader {
  public:
    explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    bool bit() {
        if (at_ >= bytes_.size() * 8) return false;
        const bool b = ((bytes_[at_ / 8] >> (at_ % 8)) & 1U) != 0;
        ++at_;
        return b;
    }
    void skip(std::size_t n) { at_ += n; }
    // Exp-Golomb code: its length in bits.
    std::size_t code() {
        const std::size_t from = at_;
        std::size_t k = 0;
        while (!bit() && at_ < bytes_.size() * 8)
            ++k;
        skip(k);
        return at_ - from;
    }
    std::size_t at() const { return at_; }

  private:
    std::span<const std::uint8_t> bytes_;
    std::size_t at_ = 0;
};

std::size_t bucket_of(std::uint64_t age) {
    const auto w = static_cast<std::size_t>(std::bit_width(age));  // 1 -> 1, 2-3 -> 2, ...
    return std::min<std::size_t>(w, DeltaBits::kAges) - 1;
}

}  // namespace

void DeltaBits::add(std::size_t datagram_bytes, std::uint64_t age,
                    std::span<const std::uint8_t> stream, std::uint32_t pucks,
                    std::uint32_t disks) {
    Bucket& b = by_age[bucket_of(age)];
    ++b.snapshots;
    b.datagram_bytes += datagram_bytes;
    b.stream_bytes += stream.size();
    Reader r(stream);
    if (r.bit()) {
        constexpr std::size_t kWidths[5] = {8, 32, 32, 64, 64};
        bool sent[5];
        for (bool& s : sent)
            s = r.bit();
        for (std::size_t i = 0; i < 5; ++i)
            if (sent[i]) r.skip(kWidths[i]);
    }
    b.header_bits += r.at();
    for (std::uint32_t d = 0; d < disks; ++d) {
        ++b.disks;
        ++b.flag_bits;
        if (!r.bit()) continue;
        ++b.disks_changed;
        const std::size_t velocity = r.code() + r.code();
        const std::size_t position = r.code() + r.code();
        (d < pucks ? b.puck_velocity_bits : b.player_velocity_bits) += velocity;
        (d < pucks ? b.puck_position_bits : b.player_position_bits) += position;
    }
    b.padding_bits += stream.size() * 8 - r.at();
}

std::string DeltaBits::age_label(std::size_t bucket) {
    static const char* const labels[kAges] = {"1", "2-3", "4-7", "8-15", "16-31", "32+"};
    return labels[bucket];
}

}  // namespace carom::bench
