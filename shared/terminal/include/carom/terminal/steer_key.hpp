#pragma once
// The steering keys of a terminal player: WASD or the arrows steer, space
// kicks (carom-client, and `carom-replay play` while taking over a player).
#include <optional>

#include "carom/play/held_keys.hpp"
#include "carom/terminal/keyboard.hpp"

namespace carom::terminal {

// The steering key `k` is, if any.
std::optional<play::Key> steer_key(const Key& k);

}  // namespace carom::terminal
