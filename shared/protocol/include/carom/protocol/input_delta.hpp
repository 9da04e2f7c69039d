#pragma once
// The one way both directions write an input as a change from another:
// server updates from the input a slot held, client updates from the next
// newer input (schemas/PROTOCOL.md, "Input changes").
#include <cstdint>

#include "carom/game/input.hpp"

namespace carom::protocol {

// How an applied input differs from the one its slot held: the kick bit
// flipped, the direction turned one step either way, or anything else. A kick
// is a press and a release; a player or bot steering after something turns
// one step at a time: both cost 2 or 3 bits instead of 7.
struct InputDelta {
    enum class Kind : std::uint8_t { kick_flip, turn_left, turn_right, literal };
    Kind kind = Kind::literal;
    std::uint8_t bits = 0;  // literal: the new input's bits

    static InputDelta between(game::Input held, game::Input applied);
    game::Input applied_to(game::Input held) const;
    friend bool operator==(const InputDelta&, const InputDelta&) = default;
};

}  // namespace carom::protocol
