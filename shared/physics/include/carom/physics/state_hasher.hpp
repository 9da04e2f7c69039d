#pragma once
// Accumulates the exact bit patterns of a state and digests them with xxHash
// (XXH3, 64 bits). Values are written little-endian, so the digest is the
// same on every platform.
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace carom::physics {

class StateHasher {
  public:
    void add(std::uint64_t v) {
        for (int i = 0; i < 8; ++i)
            bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    void add(std::uint32_t v) { add(static_cast<std::uint64_t>(v)); }
    void add(bool v) { add(static_cast<std::uint64_t>(v ? 1 : 0)); }
    // The bit pattern, so -0.0 and 0.0 (or two NaNs) hash differently.
    void add(double v) { add(std::bit_cast<std::uint64_t>(v)); }
    std::uint64_t digest() const;

  private:
    std::vector<std::uint8_t> bytes_;
};

}  // namespace carom::physics
