#pragma once
// The deterministic bot: a pure function of the match, so the same match
// gives the same inputs on every machine. It fills empty slots on the server
// and drives headless clients and load tests. Replays record the inputs it
// produced, not the bot, so changing the bot never breaks old replays.
#include "carom/game/input.hpp"
#include "carom/game/match.hpp"

namespace carom::game {

// Ticks between two decisions (100 ms at 60 Hz); the input is held between.
inline constexpr std::uint32_t kBotThinkTicks = 6;

// Chases the puck nearest to it, lines up behind it towards the opposing goal
// and kicks; the team-mate nearest its own goal defends instead, staying
// between the most dangerous puck and the goal. Decides on the ticks of its
// rhythm (every kBotThinkTicks, offset by the slot) and holds the input the
// match last applied between: what the server's bots play.
Input bot_input(const Match& match, Slot slot);

// The decision alone, on any tick: for a client whose copy of the match runs
// behind its own clock, which keeps its own rhythm (client::BotDriver).
// Idle for an empty slot and outside play.
Input bot_decision(const Match& match, Slot slot);

}  // namespace carom::game
