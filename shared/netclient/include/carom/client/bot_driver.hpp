#pragma once
// The game's bot (game::bot_decision) steering a client: `carom-client --bot`,
// carom-loadgen's players and the benchmarks' play it on the client's copy of
// the match, as the server plays it for the slots nobody holds. The copy runs
// a round trip behind the client's clock, so the driver keeps the bot's rhythm
// on its own ticks: a decision every game::kBotThinkTicks, held between.
#include <cstdint>

#include "carom/client/replica.hpp"
#include "carom/game/input.hpp"

namespace carom::client {

class BotDriver {
  public:
    // The input of this client tick for `slot` (call once a tick). Idle
    // until the copy holds a state, and for a spectator (slot < 0).
    game::Input next(const Replica& replica, std::int32_t slot);

  private:
    std::uint32_t ticks_ = 0;
    game::Input held_ = game::Input::idle();
};

}  // namespace carom::client
