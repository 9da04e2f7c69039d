#pragma once
// Accumulates the exact bit patterns of a state and digests them with xxHash
// (XXH3, 64 bits). Values are written little-endian, so the digest is the
// same on every platform. Streams through a small buffer: no allocation, so
// hashing every tick (replays do) stays cheap.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace carom::physics {

class StateHasher {
  public:
    StateHasher();
    StateHasher(const StateHasher&) = delete;
    StateHasher& operator=(const StateHasher&) = delete;

    void add(std::uint64_t v) {
        if (used_ == buffer_.size()) flush();
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(buffer_.data() + used_, &v, 8);
        } else {
            for (std::size_t i = 0; i < 8; ++i)
                buffer_[used_ + i] = static_cast<std::uint8_t>(v >> (8 * i));
        }
        used_ += 8;
    }
    void add(std::uint32_t v) { add(static_cast<std::uint64_t>(v)); }
    void add(bool v) { add(static_cast<std::uint64_t>(v ? 1 : 0)); }
    // The bit pattern, so -0.0 and 0.0 (or two NaNs) hash differently.
    void add(double v) { add(std::bit_cast<std::uint64_t>(v)); }
    // XXH3-64 of every byte added so far (the same as hashing them in one piece).
    std::uint64_t digest();

  private:
    void flush();

    // Room for xxHash's streaming state (checked against its real size in the .cpp).
    alignas(64) std::array<std::byte, 640> state_;
    std::array<std::uint8_t, 256> buffer_;
    std::size_t used_ = 0;
};

}  // namespace carom::physics
