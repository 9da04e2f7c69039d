#pragma once
// A player's input for one tick, quantised before it is simulated so that
// what a replay records is exactly what was simulated: one of 16 directions
// (or none) and a kick button, packed in one byte.
#include <array>
#include <cstdint>

#include "carom/physics/vec2.hpp"

namespace carom::game {

class Input {
  public:
    static constexpr std::uint8_t kDirections = 16;

    constexpr Input() = default;
    // Any byte is accepted; bits that mean nothing are cleared.
    static constexpr Input from_bits(std::uint8_t bits) { return Input{bits & kValidBits}; }
    static constexpr Input move(std::uint8_t direction, bool kick = false) {
        return Input{static_cast<std::uint8_t>((direction % kDirections) | kMoveBit |
                                               (kick ? kKickBit : 0))};
    }
    static constexpr Input idle(bool kick = false) { return Input{kick ? kKickBit : 0}; }
    // The direction nearest to `wish` (ties to the lower index); idle when wish is zero.
    static Input toward(physics::Vec2 wish, bool kick = false);

    constexpr std::uint8_t bits() const { return bits_; }
    constexpr bool moving() const { return (bits_ & kMoveBit) != 0; }
    constexpr bool kick() const { return (bits_ & kKickBit) != 0; }
    constexpr std::uint8_t direction() const { return bits_ & kDirectionBits; }
    // Unit vector of the direction, or zero when not moving.
    physics::Vec2 vector() const;

    friend constexpr bool operator==(Input, Input) = default;

    // The byte's layout (the wire's and the replay's).
    static constexpr std::uint8_t kDirectionBits = 0x0F;
    static constexpr std::uint8_t kMoveBit = 0x10;
    static constexpr std::uint8_t kKickBit = 0x20;
    static constexpr std::uint8_t kValidBits = kDirectionBits | kMoveBit | kKickBit;

  private:
    constexpr explicit Input(int bits) : bits_(static_cast<std::uint8_t>(bits)) {}
    std::uint8_t bits_ = 0;
};

// Direction k points at k × 22.5° counter-clockwise from +x; built with sqrt
// only (correctly rounded), never sin/cos, so it is the same everywhere.
const std::array<physics::Vec2, Input::kDirections>& direction_table();

}  // namespace carom::game
