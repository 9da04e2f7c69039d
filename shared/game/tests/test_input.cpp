// Input (input.hpp): quantisation and the direction table.
#include "carom/game/input.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace carom::game;
using carom::physics::Vec2;

TEST_CASE("Input keeps only meaningful bits") {
    const Input junk = Input::from_bits(0xFF);
    CHECK(junk.bits() == 0x3F);
    CHECK(junk.moving());
    CHECK(junk.kick());
    CHECK(junk.direction() == 15);
    CHECK(Input::from_bits(0xC0) == Input{});
    CHECK(Input::move(17).direction() == 1);
}

TEST_CASE("Direction table: 16 unit vectors, 22.5 degrees apart, exact axes") {
    const auto& t = direction_table();
    CHECK(t[0] == Vec2{1.0, 0.0});
    CHECK(t[4].y == 1.0);
    CHECK(t[8].x == -1.0);
    CHECK(t[12].y == -1.0);
    for (std::size_t k = 0; k < t.size(); ++k) {
        CHECK(std::abs(carom::physics::length(t[k]) - 1.0) < 1e-15);
        const Vec2 next = t[(k + 1) % t.size()];
        // cos 22.5° between neighbours.
        CHECK(std::abs(carom::physics::dot(t[k], next) - 0.9238795325112867) < 1e-15);
    }
}

TEST_CASE("toward picks the nearest direction, and a zero wish is idle") {
    CHECK(Input::toward({1.0, 0.05}).direction() == 0);
    CHECK(Input::toward({0.0, -3.0}).direction() == 12);
    CHECK(Input::toward({-1.0, 1.0}).direction() == 6);
    CHECK_FALSE(Input::toward({0.0, 0.0}).moving());
    CHECK(Input::toward({0.0, 0.0}, true).kick());
    CHECK(Input::toward({1.0, 0.0}).vector() == direction_table()[0]);
    CHECK(Input{}.vector() == Vec2{});
}
