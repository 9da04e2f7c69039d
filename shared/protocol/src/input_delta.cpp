#include "carom/protocol/input_delta.hpp"

#include "input_delta_code.hpp"

namespace carom::protocol {
namespace {

constexpr std::uint8_t kKickBit = game::Input::kKickBit;
constexpr std::uint8_t kDirectionBits = game::Input::kDirectionBits;

}  // namespace

InputDelta InputDelta::between(game::Input held, game::Input applied) {
    const std::uint8_t h = held.bits();
    const std::uint8_t a = applied.bits();
    if ((h ^ a) == kKickBit) return {Kind::kick_flip, 0};
    const auto turned = [h](int step) {
        return static_cast<std::uint8_t>((h & ~kDirectionBits) | ((h + step) & kDirectionBits));
    };
    if (a == turned(1)) return {Kind::turn_left, 0};
    if (a == turned(-1)) return {Kind::turn_right, 0};
    return {Kind::literal, a};
}

game::Input InputDelta::applied_to(game::Input held) const {
    const std::uint8_t h = held.bits();
    switch (kind) {
        case Kind::kick_flip:
            return game::Input::from_bits(static_cast<std::uint8_t>(h ^ kKickBit));
        case Kind::turn_left:
            return game::Input::from_bits(
                static_cast<std::uint8_t>((h & ~kDirectionBits) | ((h + 1) & kDirectionBits)));
        case Kind::turn_right:
            return game::Input::from_bits(
                static_cast<std::uint8_t>((h & ~kDirectionBits) | ((h - 1) & kDirectionBits)));
        case Kind::literal:
            break;
    }
    return game::Input::from_bits(bits);
}

namespace detail {

// 00: kick flipped; 010: turned left (direction + 1); 011: turned right; 1 + 6 bits: literal.
void write_delta(BitWriter& w, const InputDelta& d) {
    if (d.kind == InputDelta::Kind::literal) {
        w.bit(true);
        w.bits(d.bits, 6);
        return;
    }
    w.bit(false);
    if (d.kind == InputDelta::Kind::kick_flip) {
        w.bit(false);
        return;
    }
    w.bit(true);
    w.bit(d.kind == InputDelta::Kind::turn_right);
}

InputDelta read_delta(BitReader& r) {
    if (r.bit()) return {InputDelta::Kind::literal, static_cast<std::uint8_t>(r.bits(6))};
    if (!r.bit()) return {InputDelta::Kind::kick_flip, 0};
    return {r.bit() ? InputDelta::Kind::turn_right : InputDelta::Kind::turn_left, 0};
}

}  // namespace detail

}  // namespace carom::protocol
