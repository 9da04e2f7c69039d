#pragma once
// The match's random numbers: a seeded PRNG that lives in the match state, so
// a replay's seed reproduces every draw (SplitMix64; small, fast, well mixed).
#include <cstdint>

namespace carom::game {

class Rng {
  public:
    explicit constexpr Rng(std::uint64_t seed = 0) : state_(seed) {}

    constexpr std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with 53 bits, exact on every platform.
    constexpr double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    constexpr std::uint64_t state() const { return state_; }

  private:
    std::uint64_t state_;
};

}  // namespace carom::game
