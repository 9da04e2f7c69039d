#pragma once
// The bit streams inside ServerUpdate and ClientUpdate (schemas/PROTOCOL.md,
// "Bit streams"): bits least significant first within each byte, bytes in
// order; fixed-width integers least significant bit first; variable ones as
// Exp-Golomb codes of order 0.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>

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

// The longest stream either way: more than a datagram holds.
inline constexpr std::size_t kMaxStreamBytes = 1280;

// Bits gathered in a 64-bit word and stored a byte at a time, into a buffer
// of its own (no allocation: the server writes one stream per client per
// tick). A stream longer than kMaxStreamBytes is cut there and flagged.
class BitWriter {
  public:
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
        if (used_ > 0) store(static_cast<std::uint8_t>(word_));
        word_ = 0;
        used_ = 0;
    }
    // What finish() left: the stream's bytes.
    std::span<const std::uint8_t> bytes() const { return {bytes_.data(), size_}; }
    bool overflowed() const { return overflowed_; }

  private:
    // At most this many bits in one put: with up to 7 bits waiting, they fit the word.
    static constexpr int kMaxPut = 56;

    static std::uint64_t reverse_bits(std::uint64_t x) {
        x = ((x >> 1) & 0x5555'5555'5555'5555ULL) | ((x & 0x5555'5555'5555'5555ULL) << 1);
        x = ((x >> 2) & 0x3333'3333'3333'3333ULL) | ((x & 0x3333'3333'3333'3333ULL) << 2);
        x = ((x >> 4) & 0x0F0F'0F0F'0F0F'0F0FULL) | ((x & 0x0F0F'0F0F'0F0F'0F0FULL) << 4);
        return __builtin_bswap64(x);
    }
    void store(std::uint8_t byte) {
        if (size_ == bytes_.size()) {
            overflowed_ = true;
            return;
        }
        bytes_[size_++] = byte;
    }
    // `value` holds no bits above `count` (<= kMaxPut).
    void put(std::uint64_t value, int count) {
        word_ |= value << used_;
        used_ += count;
        while (used_ >= 8) {
            store(static_cast<std::uint8_t>(word_));
            word_ >>= 8;
            used_ -= 8;
        }
    }

    std::array<std::uint8_t, kMaxStreamBytes> bytes_{};
    std::size_t size_ = 0;
    bool overflowed_ = false;
    std::uint64_t word_ = 0;  // bits not yet stored, the oldest lowest
    int used_ = 0;            // how many
};

// Reads what BitWriter wrote, from two spans read as one (a head's inline
// bytes, then the rest), copied once into a buffer read 64 bits at a time.
// The first failure sticks: error() is set and every later read returns 0.
class BitReader {
  public:
    BitReader(std::span<const std::uint8_t> first, std::span<const std::uint8_t> second = {}) {
        size_ = std::min(first.size(), kMaxStreamBytes);
        std::copy_n(first.begin(), size_, bytes_.begin());
        const std::size_t rest = std::min(second.size(), kMaxStreamBytes - size_);
        std::copy_n(second.begin(), rest, bytes_.begin() + static_cast<std::ptrdiff_t>(size_));
        size_ += rest;
        std::fill_n(bytes_.begin() + static_cast<std::ptrdiff_t>(size_), 8, std::uint8_t{0});
        if (first.size() + second.size() > kMaxStreamBytes) error_ = "stream too long";
    }
    const char* error() const { return error_; }

    bool bit() { return bits(1) != 0; }
    // `count` (at most 32) bits, least significant first.
    std::uint32_t bits(int count) {
        if (error_ != nullptr) return 0;
        if (position_ + static_cast<std::size_t>(count) > size_bits()) {
            error_ = "stream truncated";
            return 0;
        }
        const auto v = static_cast<std::uint32_t>(window() & low_mask(count));
        position_ += static_cast<std::size_t>(count);
        return v;
    }
    std::uint64_t code() {
        if (error_ != nullptr) return 0;
        // The zero prefix: the window holds at least 57 of the bits ahead.
        const std::uint64_t ahead = window();
        const int k = ahead == 0 ? 64 : std::countr_zero(ahead);
        if (k > kMaxCodePrefix) {
            // Zeros to the end of the stream are a truncated code, not an oversized one.
            error_ = position_ + kMaxCodePrefix + 1 >= size_bits() ? "stream truncated"
                                                                   : "stream: oversized code";
            return 0;
        }
        if (position_ + 2 * static_cast<std::size_t>(k) + 1 > size_bits()) {
            error_ = "stream truncated";
            return 0;
        }
        position_ += static_cast<std::size_t>(k);
        // The k + 1 bits of w, most significant first: read back to front.
        const std::uint64_t stored = window() & low_mask(k + 1);
        position_ += static_cast<std::size_t>(k + 1);
        std::uint64_t w = 0;
        for (int i = 0; i <= k; ++i)
            w = (w << 1) | ((stored >> i) & 1U);
        return w - 1;
    }
    std::int64_t signed_code() { return unzigzag(code()); }
    // Whether every bit after the position is zero (the padding).
    bool rest_is_zero() const {
        for (std::size_t p = position_; p < size_bits(); ++p)
            if (((static_cast<unsigned>(bytes_[p / 8]) >> (p % 8)) & 1U) != 0) return false;
        return true;
    }
    std::size_t position() const { return position_; }  // bits read
    void fail(const char* why) {
        if (error_ == nullptr) error_ = why;
    }

  private:
    static std::uint64_t low_mask(int count) {
        return count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    }
    std::size_t size_bits() const { return size_ * 8; }
    // The 64 bits from the position on (zeros past the end), whatever the
    // host's byte order: at least 57 of them are the stream's next.
    std::uint64_t window() const {
        const std::size_t at = position_ / 8;
        std::uint64_t w = 0;
        for (std::size_t i = 0; i < 8; ++i)
            w |= std::uint64_t{bytes_[at + i]} << (8 * i);
        return w >> (position_ % 8);
    }

    // Filled up to size_, then 8 zeros (the window reads past the end);
    // the rest is never read, so not cleared.
    std::array<std::uint8_t, kMaxStreamBytes + 8> bytes_;
    std::size_t size_ = 0;
    std::size_t position_ = 0;  // in bits
    const char* error_ = nullptr;
};

}  // namespace carom::protocol::detail
