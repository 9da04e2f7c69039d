#include "carom/client/bot_driver.hpp"

#include "carom/game/bot.hpp"

namespace carom::client {

game::Input BotDriver::next(const Replica& replica, std::int32_t slot) {
    if (!replica.holds() || slot < 0 ||
        static_cast<game::Slot>(slot) >= replica.match().slot_count())
        return game::Input::idle();
    if (ticks_++ % game::kBotThinkTicks == 0)
        held_ = game::bot_decision(replica.match(), static_cast<game::Slot>(slot));
    return held_;
}

}  // namespace carom::client
