// The frame-driven chase bot: direction, kick distance, nearest puck.
#include <doctest/doctest.h>

#include "carom/client/chase_bot.hpp"

namespace carom::client {
namespace {

const double kReach = kick_distance(game::Tuning{});

// Pucks first, then the player slots, as snapshots order them.
protocol::Frame frame_with(std::initializer_list<game::Vec2> positions) {
    protocol::Frame f;
    for (const game::Vec2& p : positions)
        f.disks.push_back(protocol::quantise(p, {}));
    return f;
}

TEST_CASE("chase_moves_toward_the_puck_without_kicking_when_far") {
    // One puck at (50, 25); slot 1 at (20, 25); the goal it attacks is at x = 100.
    const protocol::Frame f = frame_with({{50, 25}, {80, 25}, {20, 25}});
    const game::Input in = chase_input(f, 1, 1, {100, 25}, kReach);
    CHECK(in.moving());
    CHECK_FALSE(in.kick());
    CHECK(in.vector().x > 0.99);
}

TEST_CASE("chase_comes_at_the_puck_from_behind_relative_to_the_goal") {
    // Player below the puck (out of reach), level with its x: the aim point is on the
    // far side from the goal (x < 50), so the move has a leftward part.
    const protocol::Frame f = frame_with({{50, 25}, {50, 18}});
    const game::Input in = chase_input(f, 0, 1, {100, 25}, kReach);
    CHECK(in.vector().y > 0.0);
    CHECK(in.vector().x < 0.0);
}

TEST_CASE("chase_kicks_within_player_plus_puck_radius_plus_two") {
    const double reach = kReach;
    CHECK(reach ==
          doctest::Approx(game::Tuning{}.player_radius + game::Tuning{}.puck_radius + 2.0));
    const protocol::Frame near = frame_with({{50, 25}, {50 - reach + 0.1, 25}});
    const protocol::Frame far = frame_with({{50, 25}, {50 - reach - 0.5, 25}});
    CHECK(chase_input(near, 0, 1, {100, 25}, kReach).kick());
    CHECK(chase_input(near, 0, 1, {100, 25}, kReach).vector().x > 0.99);
    CHECK_FALSE(chase_input(far, 0, 1, {100, 25}, kReach).kick());
}

TEST_CASE("chase_picks_the_nearest_puck") {
    // Pucks at (10, 25) and (60, 45); player slot 0 at (60, 30): the second is nearer.
    const protocol::Frame f = frame_with({{10, 25}, {60, 45}, {60, 30}});
    const game::Input in = chase_input(f, 0, 2, {100, 25}, kReach);
    CHECK(in.vector().y > 0.9);
}

TEST_CASE("chase_is_idle_without_a_puck_or_a_disk_for_the_slot") {
    const protocol::Frame f = frame_with({{50, 25}, {20, 25}});
    CHECK_FALSE(chase_input(f, 0, 0, {100, 25}, kReach).moving());
    CHECK_FALSE(chase_input(f, 1, 1, {100, 25}, kReach).moving());
    CHECK_FALSE(chase_input(protocol::Frame{}, 0, 1, {100, 25}, kReach).moving());
}

TEST_CASE("opposing_goal_is_the_centre_of_the_goal_the_other_team_defends") {
    game::Map map;
    map.size = {100, 50};
    map.goals = {{game::Team::left, {0, 20}, {0, 30}}, {game::Team::right, {100, 20}, {100, 30}}};
    CHECK(opposing_goal(map, game::Team::left) == game::Vec2{100, 25});
    CHECK(opposing_goal(map, game::Team::right) == game::Vec2{0, 25});
}

}  // namespace
}  // namespace carom::client
