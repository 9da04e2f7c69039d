// Delta snapshots as a bit stream against a prediction from the baseline
// (schemas/PROTOCOL.md, "Delta stream").
#include "delta_stream.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

namespace carom::protocol::detail {
namespace {

// Position steps per velocity step per second.
constexpr std::int64_t kPositionPerVelocity = 16;
static_assert(kPositionScale == kVelocityScale * kPositionPerVelocity);
// Ticks of travel the prediction extrapolates at most (keeps its arithmetic small).
constexpr std::uint64_t kMaxPredictedTicks = 255;
// Zero bits an Exp-Golomb code may start with. Residuals of int32 values
// against the prediction (at most 255 ticks of travel) stay below 2^40.
constexpr int kMaxCodePrefix = 62;
// Widths of the frame header fields, when sent: phase, scores, ticks_left, active_mask.
constexpr std::size_t kHeaderFields = 5;
constexpr std::array<int, kHeaderFields> kHeaderWidths{8, 32, 32, 64, 64};

std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

std::int64_t unzigzag(std::uint64_t z) {
    return static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1));
}

// Bits appended least significant first within each byte, gathered in a
// 64-bit word and stored a byte at a time (a snapshot encodes hundreds of bits).
class BitWriter {
  public:
    explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) { out_.clear(); }

    void bit(bool b) { put(b ? 1U : 0U, 1); }
    // `count` bits of `value`, least significant first.
    void bits(std::uint64_t value, int count) {
        if (count > 32) {
            put(value & 0xFFFF'FFFFU, 32);
            value >>= 32;
            count -= 32;
        }
        put(value & low_mask(count), count);
    }
    // Exp-Golomb (order 0) of zigzag(v): k zero bits, then zigzag(v) + 1 in
    // its k + 1 bits, most significant (a one) first.
    void signed_code(std::int64_t v) {
        const std::uint64_t w = zigzag(v) + 1;  // |v| < 2^40: no wrap
        const int k = static_cast<int>(std::bit_width(w)) - 1;
        // Most significant first is the reverse of the stream's order.
        const std::uint64_t reversed = reverse_bits(w) >> (63 - k);
        if (2 * k + 1 <= kMaxPut) {
            put(reversed << k, 2 * k + 1);
        } else {
            put(0, k);
            put(reversed, k + 1);
        }
    }
    // Stores the last, partly used byte (the rest of it zero).
    void finish() {
        if (used_ > 0) out_.push_back(static_cast<std::uint8_t>(word_));
        word_ = 0;
        used_ = 0;
    }

  private:
    // At most this many bits in one put: with up to 7 bits waiting, they fit the word.
    static constexpr int kMaxPut = 56;

    static std::uint64_t low_mask(int count) {
        return count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    }
    static std::uint64_t reverse_bits(std::uint64_t x) {
        x = ((x >> 1) & 0x5555'5555'5555'5555ULL) | ((x & 0x5555'5555'5555'5555ULL) << 1);
        x = ((x >> 2) & 0x3333'3333'3333'3333ULL) | ((x & 0x3333'3333'3333'3333ULL) << 2);
        x = ((x >> 4) & 0x0F0F'0F0F'0F0F'0F0FULL) | ((x & 0x0F0F'0F0F'0F0F'0F0FULL) << 4);
        return __builtin_bswap64(x);
    }
    // `value` holds no bits above `count` (<= kMaxPut).
    void put(std::uint64_t value, int count) {
        word_ |= value << used_;
        used_ += count;
        while (used_ >= 8) {
            out_.push_back(static_cast<std::uint8_t>(word_));
            word_ >>= 8;
            used_ -= 8;
        }
    }

    std::vector<std::uint8_t>& out_;
    std::uint64_t word_ = 0;  // bits not yet stored, the oldest lowest
    int used_ = 0;            // how many
};

// Reads what BitWriter wrote; the first failure sticks (error() non-null)
// and every later read returns 0.
class BitReader {
  public:
    explicit BitReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    const char* error() const { return error_; }

    bool bit() {
        if (error_ != nullptr) return false;
        if (position_ == bytes_.size() * 8) {
            error_ = "delta stream truncated";
            return false;
        }
        const unsigned byte = bytes_[position_ / 8];
        const bool b = ((byte >> (position_ % 8)) & 1U) != 0;
        ++position_;
        return b;
    }
    std::uint64_t bits(int count) {
        std::uint64_t v = 0;
        for (int i = 0; i < count; ++i)
            if (bit()) v |= std::uint64_t{1} << i;
        return v;
    }
    std::int64_t signed_code() {
        int k = 0;
        while (!bit()) {
            if (error_ != nullptr) return 0;
            if (++k > kMaxCodePrefix) {
                error_ = "delta stream: oversized code";
                return 0;
            }
        }
        std::uint64_t w = 1;
        for (int i = 0; i < k; ++i)
            w = (w << 1) | (bit() ? 1U : 0U);
        return error_ != nullptr ? 0 : unzigzag(w - 1);
    }
    // Whether only the zero padding of the last byte is left.
    bool at_end() const {
        const std::size_t left = bytes_.size() * 8 - position_;
        return left < 8 && (left == 0 || (bytes_.back() >> (position_ % 8)) == 0);
    }

  private:
    std::span<const std::uint8_t> bytes_;
    std::size_t position_ = 0;  // in bits
    const char* error_ = nullptr;
};

// Nearest integer to num / den (den > 0), halves up.
std::int64_t round_div(std::int64_t num, std::int64_t den) {
    std::int64_t q = num / den;
    std::int64_t r = num % den;
    if (r < 0) {
        --q;
        r += den;
    }
    return 2 * r >= den ? q + 1 : q;
}

// How far (position steps) a disk travels in `ticks` ticks while its
// velocity (velocity steps) goes evenly from v0 to v1, as the match steps:
// each tick moves by the velocity after it. Exact integer arithmetic, so
// both ends predict the same.
std::int64_t predicted_travel(std::int64_t v0, std::int64_t v1, std::uint64_t ticks) {
    const auto n = static_cast<std::int64_t>(std::min(ticks, kMaxPredictedTicks));
    return round_div((2 * n * v0 + (n + 1) * (v1 - v0)) * kPositionPerVelocity,
                     2 * std::int64_t{game::kTickRate});
}

std::uint64_t predicted_ticks_left(const Frame& baseline, std::uint64_t elapsed) {
    return baseline.ticks_left - std::min(elapsed, baseline.ticks_left);
}

std::array<std::uint64_t, kHeaderFields> header_of(const Frame& f) {
    return {static_cast<std::uint8_t>(f.phase), f.score[0], f.score[1], f.ticks_left,
            f.active_mask};
}

// The prediction: the baseline's header with the clock run on.
std::array<std::uint64_t, kHeaderFields> predicted_header(const Frame& baseline,
                                                          std::uint64_t elapsed) {
    auto h = header_of(baseline);
    h[3] = predicted_ticks_left(baseline, elapsed);
    return h;
}

}  // namespace

void encode_delta(const Frame& frame, const Frame& baseline, std::vector<std::uint8_t>& out) {
    BitWriter w(out);
    const std::uint64_t elapsed = frame.tick - baseline.tick;
    const auto header = header_of(frame);
    const auto predicted = predicted_header(baseline, elapsed);
    w.bit(header != predicted);
    if (header != predicted) {
        for (std::size_t i = 0; i < kHeaderFields; ++i)
            w.bit(header[i] != predicted[i]);
        for (std::size_t i = 0; i < kHeaderFields; ++i)
            if (header[i] != predicted[i]) w.bits(header[i], kHeaderWidths[i]);
    }
    for (std::size_t i = 0; i < frame.disks.size(); ++i) {
        const net::DiskQ& d = frame.disks[i];
        const net::DiskQ& b = baseline.disks[i];
        const std::int64_t dvx = std::int64_t{d.vx()} - b.vx();
        const std::int64_t dvy = std::int64_t{d.vy()} - b.vy();
        const std::int64_t dx = d.x() - (b.x() + predicted_travel(b.vx(), d.vx(), elapsed));
        const std::int64_t dy = d.y() - (b.y() + predicted_travel(b.vy(), d.vy(), elapsed));
        const bool differs = dvx != 0 || dvy != 0 || dx != 0 || dy != 0;
        w.bit(differs);
        if (!differs) continue;
        w.signed_code(dvx);
        w.signed_code(dvy);
        w.signed_code(dx);
        w.signed_code(dy);
    }
    w.finish();
}

bool decode_delta(std::span<const std::uint8_t> stream, const Frame& baseline, Frame& f,
                  std::string& error) {
    BitReader r(stream);
    const std::uint64_t elapsed = f.tick - baseline.tick;
    auto header = predicted_header(baseline, elapsed);
    if (r.bit()) {
        std::array<bool, kHeaderFields> sent{};
        for (bool& s : sent)
            s = r.bit();
        for (std::size_t i = 0; i < kHeaderFields; ++i)
            if (sent[i]) header[i] = r.bits(kHeaderWidths[i]);
    }
    const auto fits = [](std::int64_t v) {
        return v >= std::numeric_limits<std::int32_t>::min() &&
               v <= std::numeric_limits<std::int32_t>::max();
    };
    bool in_range = true;
    for (net::DiskQ& d : f.disks) {
        // Without its flag, a disk is where the prediction puts it (residuals 0).
        const bool differs = r.bit();
        const std::int64_t vx = d.vx() + (differs ? r.signed_code() : 0);
        const std::int64_t vy = d.vy() + (differs ? r.signed_code() : 0);
        // Out of range, the prediction would not be bounded: stop here.
        in_range = fits(vx) && fits(vy);
        if (!in_range) break;
        const std::int64_t x =
            d.x() + predicted_travel(d.vx(), vx, elapsed) + (differs ? r.signed_code() : 0);
        const std::int64_t y =
            d.y() + predicted_travel(d.vy(), vy, elapsed) + (differs ? r.signed_code() : 0);
        in_range = fits(x) && fits(y);
        if (!in_range) break;
        d = net::DiskQ(static_cast<std::int32_t>(x), static_cast<std::int32_t>(y),
                       static_cast<std::int32_t>(vx), static_cast<std::int32_t>(vy));
    }
    if (r.error() != nullptr) {
        error = r.error();
        return false;
    }
    if (!in_range) {
        error = "delta stream: value out of range";
        return false;
    }
    if (!r.at_end()) {
        error = "delta stream: bytes left over";
        return false;
    }
    if (header[0] > static_cast<std::uint8_t>(game::Phase::finished)) {
        error = "unknown phase";
        return false;
    }
    f.phase = static_cast<game::Phase>(header[0]);
    f.score = {static_cast<std::uint32_t>(header[1]), static_cast<std::uint32_t>(header[2])};
    f.ticks_left = header[3];
    f.active_mask = header[4];
    return true;
}

}  // namespace carom::protocol::detail
