#pragma once
// InputDelta in a bit stream: 00 the kick flipped, 010 turned left (direction
// + 1), 011 turned right, 1 and 6 bits a literal input.
#include "bit_stream.hpp"
#include "carom/protocol/input_delta.hpp"

namespace carom::protocol::detail {

void write_delta(BitWriter& w, const InputDelta& d);
InputDelta read_delta(BitReader& r);

}  // namespace carom::protocol::detail
