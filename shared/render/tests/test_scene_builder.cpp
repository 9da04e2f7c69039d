// The one scene builder: what carom-client and carom-replay draw of a match.
#include <doctest/doctest.h>

#include <filesystem>

#include "carom/maps/map_file.hpp"
#include "carom/render/scene_builder.hpp"

namespace carom::render {
namespace {

game::Match two_a_side() {
    auto map = maps::load_map_file(std::filesystem::path(CAROM_MAPS_DIR) / "arena.json");
    REQUIRE(map.ok());
    game::Match match(std::move(*map), 3);
    match.join(0, "ann");
    match.join(1, "");
    match.join(match.slot_count() - 1, "bob");
    return match;
}

std::size_t count(const Scene& scene, Ink ink) {
    std::size_t n = 0;
    for (const DiskView& d : scene.disks)
        n += d.ink == ink ? 1 : 0;
    return n;
}

}  // namespace

TEST_CASE("scene_draws_the_pucks_and_the_active_players_in_their_team_inks") {
    const game::Match match = two_a_side();
    SceneBuilder builder;
    const Scene scene = builder.build(match, {});
    CHECK(scene.map == &match.map());
    CHECK(count(scene, Ink::puck) == match.puck_count());
    CHECK(scene.disks.size() ==
          match.puck_count() + match.disc_count() + 3);  // free slots: not drawn
    CHECK(count(scene, Ink::team_left) + count(scene, Ink::team_right) == 3);
    CHECK(count(scene, Ink::own) == 0);
    CHECK(scene.disks[0].position == match.puck_disk(0).position);
    CHECK(scene.roster.empty());
    CHECK(scene.hud.phase == Phase::playing);
    CHECK(scene.hud.ticks_left == match.ticks_left());
}

TEST_CASE("scene_draws_the_followed_player_last_where_the_request_puts_it") {
    const game::Match match = two_a_side();
    SceneRequest request;
    request.followed = 1;
    request.followed_at = game::Vec2{12.5, 7.25};
    request.kickoff = true;
    SceneBuilder builder;
    const Scene scene = builder.build(match, request);
    REQUIRE_FALSE(scene.disks.empty());
    CHECK(scene.disks.back().ink == Ink::own);
    CHECK(scene.disks.back().position == game::Vec2{12.5, 7.25});
    CHECK(count(scene, Ink::own) == 1);
    CHECK(scene.hud.phase == Phase::kickoff);
}

TEST_CASE("scene_takes_the_drawn_positions_of_whole_groups_only") {
    const game::Match match = two_a_side();
    Positions at;
    at.pucks.assign(match.puck_count(), game::Vec2{1.0, 2.0});
    at.players.assign(3, game::Vec2{9.0, 9.0});  // not one per slot: the match's own
    SceneRequest request;
    request.positions = &at;
    SceneBuilder builder;
    const Scene scene = builder.build(match, request);
    CHECK(scene.disks[0].position == game::Vec2{1.0, 2.0});
    for (const DiskView& d : scene.disks)
        if (d.ink == Ink::team_left && d.position == match.player_disk(0).position) return;
    FAIL("the left player is not where the match has it");
}

TEST_CASE("scene_roster_names_each_active_player_with_team_goals_and_bot") {
    const game::Match match = two_a_side();
    SceneRequest request;
    request.roster = true;
    request.followed = 0;
    request.is_bot = [](game::Slot s) { return s == 1; };
    SceneBuilder builder;
    const Scene scene = builder.build(match, request);
    REQUIRE(scene.roster.size() == 3);
    CHECK(scene.roster[0].name == "ann");
    CHECK(scene.roster[0].you);
    CHECK_FALSE(scene.roster[0].bot);
    CHECK(scene.roster[1].name == "slot 1");  // no name: its slot
    CHECK(scene.roster[1].bot);
    CHECK(scene.roster[2].name == "bob");
    CHECK(scene.roster[2].team == game::Team::right);
}

}  // namespace carom::render
