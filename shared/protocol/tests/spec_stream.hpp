#pragma once
// PROTOCOL.md's bit streams written out literally, one bit at a time, so the
// codecs are checked against the text and not against themselves.
#include <cstdint>
#include <vector>

#include "carom/protocol/input_delta.hpp"

namespace carom::protocol::test {

class SpecStream {
  public:
    void bit(bool b) {
        if (bits_ % 8 == 0) bytes_.push_back(0);
        if (b) bytes_.back() = static_cast<std::uint8_t>(bytes_.back() | (1U << (bits_ % 8)));
        ++bits_;
    }
    void fixed(std::uint64_t v, int width) {
        for (int i = 0; i < width; ++i)
            bit(((v >> i) & 1U) != 0);
    }
    // Exp-Golomb of order 0: w = v + 1 has k + 1 bits; k zeros, then w from its top bit.
    void code(std::uint64_t v) {
        const std::uint64_t w = v + 1;
        int k = 0;
        while ((w >> (k + 1)) != 0)
            ++k;
        for (int i = 0; i < k; ++i)
            bit(false);
        for (int i = k; i >= 0; --i)
            bit(((w >> i) & 1U) != 0);
    }
    // 0, -1, 1, -2, 2... as 0, 1, 2, 3, 4...
    void signed_code(std::int64_t v) {
        code(v >= 0 ? 2 * static_cast<std::uint64_t>(v)
                    : 2 * static_cast<std::uint64_t>(-(v + 1)) + 1);
    }
    // 00 kick flipped, 010 turned left, 011 turned right, 1 + 6 bits literal.
    void delta(const InputDelta& d) {
        switch (d.kind) {
            case InputDelta::Kind::kick_flip:
                bit(false), bit(false);
                return;
            case InputDelta::Kind::turn_left:
                bit(false), bit(true), bit(false);
                return;
            case InputDelta::Kind::turn_right:
                bit(false), bit(true), bit(true);
                return;
            case InputDelta::Kind::literal:
                bit(true), fixed(d.bits, 6);
                return;
        }
    }
    const std::vector<std::uint8_t>& bytes() const { return bytes_; }

  private:
    std::vector<std::uint8_t> bytes_;
    std::size_t bits_ = 0;
};

}  // namespace carom::protocol::test
