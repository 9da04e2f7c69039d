#pragma once
// One field's value read from a stadium's object: numbers, points and
// colours, each refused with the field's path and the reason.
#include <cstdint>
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

#include "carom/game/map.hpp"
#include "carom/result.hpp"
#include "stadium_object.hpp"

namespace carom::stadium::detail {

// The finite number at `key`, or `fallback` when it is absent.
Result<double> number(const StadiumObject& o, const std::string& key, double fallback);

// Several of number(), each into its `out`, in order; the first refusal
// stops the reading.
struct NumberField {
    const char* key;
    double fallback;
    double& out;
};
Status read_numbers(const StadiumObject& o, std::initializer_list<NumberField> fields);

// `value` as [x, y], both finite; `field` names it in a refusal.
Result<game::Vec2> point(const nlohmann::json& value, const std::string& field);

// A vector HaxBall adds each tick (a speed, a gravity) that carom cannot:
// absent or [0, 0], else refused with `otherwise`.
Status absent_or_zero(const StadiumObject& o, const std::string& key, const std::string& otherwise);

struct Colour {
    std::uint32_t rgb = 0;
    bool transparent = false;  // "transparent": not drawn (rgb is the fallback)
};
// "color": "RRGGBB", "transparent" or [r, g, b]; `fallback` when absent.
Result<Colour> colour(const StadiumObject& o, std::uint32_t fallback);

}  // namespace carom::stadium::detail
