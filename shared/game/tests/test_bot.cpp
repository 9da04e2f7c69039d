// The bot (bot.hpp): deterministic, and it plays well enough to score.
#include "carom/game/bot.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "test_support.hpp"

using namespace carom::game;

TEST_CASE("Bots against an idle player score, deterministically") {
    auto play = [] {
        Match m(test::small_map(2), 9);
        m.join(0, "bot-a");
        m.join(1, "bot-b");
        m.join(2, "idle");
        std::vector<Input> in(m.slot_count());
        for (int t = 0; t < 60 * 40 && m.phase() != Phase::finished; ++t) {
            in[0] = bot_input(m, 0);
            in[1] = bot_input(m, 1);
            m.step(in);
        }
        return m;
    };
    const Match a = play();
    const Match b = play();
    CHECK(a.state_hash() == b.state_hash());
    CHECK(a.score(Team::left) >= 1);
    CHECK(a.score(Team::left) > a.score(Team::right));
}

TEST_CASE("A bot holds its input between decisions and idles in an empty slot") {
    Match m(test::small_map(), 3);
    m.join(0, "bot");
    std::vector<Input> in(m.slot_count());
    CHECK(bot_input(m, 1) == Input{});
    for (int t = 0; t < 30; ++t) {
        const Input chosen = bot_input(m, 0);
        if ((m.tick() + 0) % kBotThinkTicks != 0) CHECK(chosen == m.last_input(0));
        in[0] = chosen;
        m.step(in);
    }
}
