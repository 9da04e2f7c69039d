#pragma once
// FullState: the room's match at one server tick, exactly (every double bit
// for bit), for a client that holds no state the server can update
// (schemas/PROTOCOL.md, "FullState"). A state larger than a datagram is
// split in parts; the client puts them back together.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/result.hpp"
#include "net_generated.h"

namespace carom::protocol {

// The room's match after server tick `tick`, and what a client needs with it.
struct RoomState {
    std::uint64_t tick = 0;
    std::uint64_t state_hash = 0;           // Match::state_hash() of `match`
    std::uint32_t last_input_sequence = 0;  // of the receiving client's inputs
    std::uint64_t match_seed = 0;
    std::uint64_t match_start_tick = 0;  // the server tick of the match's tick 0
    std::uint64_t halted_since = 0;      // 0: the room steps
    float server_tick_ms = 0.0F;
    game::MatchState match;
    std::vector<bool> bots;  // per slot: the room plays it with a bot
};

// Encodes `state` as FullState packets of the session `client_id`, as few as
// fit kMaxSessionDatagramBytes each (room for the seal), and hands each to
// `send` (its bytes live until `send` returns).
void encode_full_state(flatbuffers::FlatBufferBuilder& builder, std::uint32_t client_id,
                       const RoomState& state,
                       const std::function<void(std::span<const std::uint8_t>)>& send);

// Puts the parts of a full state back together.
class FullStateAssembly {
  public:
    // A verified FullState for a map of `slots` player slots, `pucks`
    // pucks and `discs` movable discs: the whole state once every part of its tick came, nothing
    // while parts are missing (a part of a newer tick starts over), or why
    // the part does not fit (an index out of range, a part given twice,
    // parts that disagree, an unknown phase, a name too long).
    Result<std::optional<RoomState>> add(const net::FullState& part, std::uint32_t slots,
                                         std::uint32_t pucks, std::uint32_t discs = 0);
    void clear();

  private:
    std::optional<RoomState> building_;
    std::uint8_t parts_ = 0;
    std::vector<bool> part_seen_, slot_seen_, puck_seen_, disc_seen_;
};

}  // namespace carom::protocol
