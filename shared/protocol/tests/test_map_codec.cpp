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
    REQUIRE(std::holds_alternative<game::Map>(back));
    const game::Map& r = std::get<game::Map>(back);
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
    REQUIRE(std::holds_alternative<std::string>(r));
    CHECK(std::get<std::string>(r) == "not a valid binary map");
    CHECK(std::holds_alternative<std::string>(protocol::map_from_binary({})));

    game::Map bad = sample();
    bad.puck_spawns.clear();
    r = protocol::map_from_binary(protocol::map_to_binary(bad));
    REQUIRE(std::holds_alternative<std::string>(r));
    CHECK(std::get<std::string>(r).rfind("puck_spawns:", 0) == 0);
}
