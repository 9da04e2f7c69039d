#pragma once
// The `delta` field of a delta snapshot: a bit stream of what differs from a
// prediction made from the baseline frame (the clock run on, each disk moved
// along its velocity). Both ends predict with the same integer arithmetic, so
// decoding gives back the encoded frame exactly.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "carom/protocol/net.hpp"

namespace carom::protocol::detail {

// `frame` and `baseline` have the same number of disks; frame.tick > baseline.tick.
// The stream replaces the contents of `out` (its capacity is kept).
void encode_delta(const Frame& frame, const Frame& baseline, std::vector<std::uint8_t>& out);

// `f` holds f.tick and the baseline's disks; the stream is applied to them.
// False with `error` set when the stream is truncated, overlong or out of range.
bool decode_delta(std::span<const std::uint8_t> stream, const Frame& baseline, Frame& f,
                  std::string& error);

}  // namespace carom::protocol::detail
