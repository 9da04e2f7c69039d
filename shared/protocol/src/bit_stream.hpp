#pragma once
// The bit streams inside ServerUpdate and ClientUpdate (schemas/PROTOCOL.md,
// "Bit streams"): bits least significant first within each byte, bytes in
// order; fixed-width integers least significant bit first; variable ones as
// Exp-Golomb codes of order 0.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace carom::protocol::detail {

// Zero bits an Exp-Golomb code may start with: every value the streams carry
// is far below 2^40.
inline constexpr int kMaxCodePrefix = 40;

constexpr std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

constexpr std::int64_t unzigzag(std::uint64_t z) {
    return static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1));
}

// Bits gathered in a 64-bit word and stored a byte at a time.
class BitWriter {
  public:
    // Replaces the contents of `out` (its capacity is kept).
    explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) { out_.clear(); }

    void bit(bool b) { put(b ? 1U : 0U, 1); }
    // The low `count` (at most 32) bits of `value`, least significant first.
    void bits(std::uint32_t value, int count) {
        put(count == 32 ? value : value & ((std::uint32_t{1} << count) - 1), count);
    }
    // Exp-Golomb of order 0 of v (< 2^40): with w = v + 1 and k = bit width of
    // w minus 1, k zero bits, then the k + 1 bits of w, most significant first.
    void code(std::uint64_t v) {
        const std::uint64_t w = v + 1;
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
    // A signed value as the code of its zigzag: 0, -1, 1, -2... as 0, 1, 2, 3...
    void signed_code(std::int64_t v) { code(zigzag(v)); }
    // Stores the last, partly used byte (the rest of it zero).
    void finish() {
        if (used_ > 0) out_.push_back(static_cast<std::uint8_t>(word_));
        word_ = 0;
        used_ = 0;
    }
    std::size_t bit_count() const { return out_.size() * 8 + static_cast<std::size_t>(used_); }

  private:
    // At most this many bits in one put: with up to 7 bits waiting, they fit the word.
    static constexpr int kMaxPut = 56;

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

// Reads what BitWriter wrote from two spans read as one (a head's inline
// bytes, then the rest). The first failure sticks: error() is set and every
// later read returns 0.
class BitReader {
  public:
    explicit BitReader(std::span<const std::uint8_t> first,
                       std::span<const std::uint8_t> second = {})
        : first_(first), second_(second) {}
    const char* error() const { return error_; }

    bool bit() {
        if (error_ != nullptr) return false;
        if (position_ == size_bits()) {
            error_ = "stream truncated";
            return false;
        }
        const bool b = ((byte(position_ / 8) >> (position_ % 8)) & 1U) != 0;
        ++position_;
        return b;
    }
    std::uint32_t bits(int count) {
        std::uint32_t v = 0;
        for (int i = 0; i < count; ++i)
            if (bit()) v |= std::uint32_t{1} << i;
        return v;
    }
    std::uint64_t code() {
        int k = 0;
        while (!bit()) {
            if (error_ != nullptr) return 0;
            if (++k > kMaxCodePrefix) {
                error_ = "stream: oversized code";
                return 0;
            }
        }
        std::uint64_t w = 1;
        for (int i = 0; i < k; ++i)
            w = (w << 1) | (bit() ? 1U : 0U);
        return error_ != nullptr ? 0 : w - 1;
    }
    std::int64_t signed_code() { return unzigzag(code()); }
    // Whether every bit after the position is zero (the padding).
    bool rest_is_zero() const {
        for (std::size_t p = position_; p < size_bits(); ++p)
            if (((byte(p / 8) >> (p % 8)) & 1U) != 0) return false;
        return true;
    }
    std::size_t position() const { return position_; }  // bits read
    void fail(const char* why) {
        if (error_ == nullptr) error_ = why;
    }

  private:
    std::size_t size_bits() const { return (first_.size() + second_.size()) * 8; }
    unsigned byte(std::size_t i) const {
        return i < first_.size() ? first_[i] : second_[i - first_.size()];
    }

    std::span<const std::uint8_t> first_, second_;
    std::size_t position_ = 0;  // in bits
    const char* error_ = nullptr;
};

}  // namespace carom::protocol::detail
