// Map codec (map_codec.hpp): binary round trip and refusal of bad buffers.
#include "carom/protocol/map_codec.hpp"

#include <doctest/doctest.h>

using namespace carom;

namespace {

game::Map sample() {
    game::Map m;
    m.name = "sample";
    m.size = {40.0, 20.0};
    m.boxes = {{{20.0, 21.0}, {22.0, 1.0}}, {{20.0, -3.0}, {2.0, 1.0}, {0.6, 0.8}}};
    m.segments = {{{0.0, 3.0}, {3.0, 0.0}}};
    m.goals = {{game::Team::left, {0.0, 7.0}, {0.0, 13.0}},
               {game::Team::right, {40.0, 7.0}, {40.0, 13.0}}};
    m.spawns = {{game::Team::left, {10.0, 10.0}}, {game::Team::right, {30.0, 10.0}}};
    m.puck_spawns = {{20.0, 10.0}};
    m.tuning.kick_speed = 123.25;
    return m;
}

}  // namespace

TEST_CASE("A map survives the binary form exactly") {
    const game::Map m = sample();
    const auto bytes = protocol::map_to_binary(m);
    auto back = protocol::map_from_binary(bytes);
    REQUIRE(back.ok());
    const game::Map& r = *back;
    CHECK(r.name == "sample");
    CHECK(r.boxes.size() == 2);
    CHECK(r.boxes[1].axis == game::Vec2{0.6, 0.8});
    CHECK(r.segments[0].b == game::Vec2{3.0, 0.0});
    CHECK(r.goals[1].defender == game::Team::right);
    CHECK(r.tuning.kick_speed == 123.25);
    CHECK(protocol::map_to_binary(r) == bytes);
}

TEST_CASE("Damaged or unplayable binary maps are refused with a reason") {
    auto bytes = protocol::map_to_binary(sample());
    auto cut = bytes;
    cut.resize(cut.size() / 2);
    auto r = protocol::map_from_binary(cut);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "not a valid binary map");
    CHECK_FALSE(protocol::map_from_binary({}).ok());

    game::Map bad = sample();
    bad.puck_spawns.clear();
    r = protocol::map_from_binary(protocol::map_to_binary(bad));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.rfind("puck_spawns:", 0) == 0);
}

TEST_CASE("A map of boxes and segments carries no stadium fields in its binary form") {
    const auto bytes = protocol::map_to_binary(sample());
    const schema::Map* m = schema::GetMap(bytes.data());
    CHECK(m->walls() == nullptr);
    CHECK(m->posts() == nullptr);
    CHECK(m->puck_collision() == nullptr);
    CHECK(m->discs() == nullptr);
    CHECK(m->tuning()->kicking_acceleration() == -1.0);
}

TEST_CASE("Movable discs survive the binary form exactly") {
    game::Map m = sample();
    game::Disc d;
    d.position = {25.0, 5.0};
    d.velocity = {-3.5, 0.25};
    d.radius = 0.75;
    d.mass = 2.5;
    d.restitution = 0.625;
    d.drag = 1.2;
    d.collision = {game::groups::kC3, game::groups::kWall | game::groups::kBall};
    d.color = 0x00FF00;
    m.discs = {d};
    m.kickoff_resets_discs = true;
    const auto bytes = protocol::map_to_binary(m);
    auto back = protocol::map_from_binary(bytes);
    REQUIRE_MESSAGE(back.ok(), (!back.ok() ? back.error().message : ""));
    REQUIRE(back->discs.size() == 1);
    const game::Disc& r = back->discs[0];
    CHECK(r.position == d.position);
    CHECK(r.velocity == d.velocity);
    CHECK(r.radius == d.radius);
    CHECK(r.mass == d.mass);
    CHECK(r.restitution == d.restitution);
    CHECK(r.drag == d.drag);
    CHECK(r.collision.group == d.collision.group);
    CHECK(r.collision.mask == d.collision.mask);
    CHECK(r.color == d.color);
    CHECK(back->kickoff_resets_discs);
    CHECK(protocol::map_to_binary(*back) == bytes);

    // A disc the game could not play is refused with its field.
    m.discs[0].mass = 0.0;
    const auto refused = protocol::map_from_binary(protocol::map_to_binary(m));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("discs[0].mass") == 0);
}

TEST_CASE("Walls, posts and collision groups survive the binary form exactly") {
    game::Map m = sample();
    game::Wall arc;
    arc.shape = game::Wall::Shape::arc;
    arc.a = {40.0, 7.0};
    arc.b = {40.0, 13.0};
    arc.center = {42.0, 10.0};
    arc.bias = -2.5;
    arc.restitution = 0.25;
    arc.collision = {game::groups::kWall | game::groups::kC2, game::groups::kBall};
    arc.color = 0x123456;
    arc.visible = false;
    game::Wall plane;
    plane.shape = game::Wall::Shape::plane;
    plane.normal = {0.0, 2.0};
    plane.offset = -1.0;
    m.walls = {arc, plane};
    m.posts = {{{40.0, 6.0}, 0.5, 0.75, {game::groups::kAll, game::groups::kAll}, 0xABCDEF}};
    m.puck_collision = {game::groups::kBall | game::groups::kKick, game::groups::kAll};
    m.kickoff_nudge = false;
    m.tuning.kicking_acceleration = 50.0;
    m.tuning.kicking_drag = 2.0;
    const auto bytes = protocol::map_to_binary(m);
    auto back = protocol::map_from_binary(bytes);
    REQUIRE_MESSAGE(back.ok(), (!back.ok() ? back.error().message : ""));
    const game::Map& r = *back;
    REQUIRE(r.walls.size() == 2);
    CHECK(r.walls[0].shape == game::Wall::Shape::arc);
    CHECK(r.walls[0].center == game::Vec2{42.0, 10.0});
    CHECK(r.walls[0].bias == -2.5);
    CHECK(r.walls[0].restitution == 0.25);
    CHECK(r.walls[0].collision.group == (game::groups::kWall | game::groups::kC2));
    CHECK(r.walls[0].color == 0x123456u);
    CHECK_FALSE(r.walls[0].visible);
    CHECK(r.walls[1].normal == game::Vec2{0.0, 2.0});
    REQUIRE(r.posts.size() == 1);
    CHECK(r.posts[0].color == 0xABCDEFu);
    CHECK(r.puck_collision.group == (game::groups::kBall | game::groups::kKick));
    CHECK_FALSE(r.kickoff_nudge);
    CHECK(r.tuning.kicking_acceleration == 50.0);
    CHECK(protocol::map_to_binary(r) == bytes);
}

TEST_CASE("An arc whose ends are not on one circle is refused, naming the wall") {
    game::Map m = sample();
    game::Wall arc;
    arc.shape = game::Wall::Shape::arc;
    arc.a = {40.0, 7.0};
    arc.b = {40.0, 14.0};
    arc.center = {37.0, 10.0};
    m.walls = {arc};
    auto back = protocol::map_from_binary(protocol::map_to_binary(m));
    REQUIRE_FALSE(back.ok());
    CHECK(back.error().message.find("walls[0].center:") == 0);
}
