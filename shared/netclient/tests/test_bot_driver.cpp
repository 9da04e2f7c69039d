// The game's bot steering a client: decisions on the client's copy of the
// match, every kBotThinkTicks client ticks, held between.
#include <doctest/doctest.h>

#include <filesystem>

#include "carom/client/bot_driver.hpp"
#include "carom/game/bot.hpp"
#include "carom/maps/map_file.hpp"

namespace carom::client {
namespace {

game::Map arena() {
    auto map = maps::load_map_file(std::filesystem::path(CAROM_MAPS_DIR) / "arena.json");
    REQUIRE(map.ok());
    return std::move(*map);
}

// A copy of `match` as a client restored it from a FullState.
void hold(Replica& replica, const game::Match& match) {
    protocol::RoomState s;
    s.tick = 100 + match.tick();
    s.state_hash = match.state_hash();
    s.match_seed = match.seed();
    s.match = match.save();
    s.bots.assign(match.slot_count(), false);
    REQUIRE(replica.restore(s).ok());
}

}  // namespace

TEST_CASE("bot_driver_is_idle_until_the_copy_holds_a_state_and_for_a_spectator") {
    const game::Map map = arena();
    Replica replica{game::CheckedMap(map)};
    BotDriver driver;
    CHECK_FALSE(driver.next(replica, 0).moving());
    game::Match match(map, 7);
    match.join(0, "ann");
    hold(replica, match);
    BotDriver spectator;
    CHECK_FALSE(spectator.next(replica, -1).moving());
    BotDriver outside;
    CHECK_FALSE(outside.next(replica, static_cast<std::int32_t>(match.slot_count())).moving());
}

TEST_CASE("bot_driver_plays_the_games_decision_and_holds_it_between_thoughts") {
    const game::Map map = arena();
    game::Match match(map, 7);
    match.join(0, "ann");
    match.join(1, "bob");
    Replica replica{game::CheckedMap(map)};
    hold(replica, match);
    BotDriver driver;
    // The first decision is the game's for the copy as it stands.
    const game::Input first = driver.next(replica, 0);
    CHECK(first == game::bot_decision(replica.match(), 0));
    CHECK(first.moving());
    // The copy moves on (the disks with it); the driver holds until its next thought.
    std::vector<game::Input> inputs(match.slot_count(), game::Input::toward({0.0, 1.0}));
    for (int t = 0; t < 30; ++t)
        match.step(inputs);
    hold(replica, match);
    const game::Input fresh = game::bot_decision(replica.match(), 0);
    REQUIRE(fresh != first);
    for (std::uint32_t t = 1; t < game::kBotThinkTicks; ++t)
        CHECK(driver.next(replica, 0) == first);
    CHECK(driver.next(replica, 0) == fresh);
}

}  // namespace carom::client
