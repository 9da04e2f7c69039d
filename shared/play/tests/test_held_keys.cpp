// Which keys steer: the hold window of terminals that report presses alone,
// and exact presses and releases where the terminal reports them.
#include <doctest/doctest.h>

#include "carom/play/held_keys.hpp"

namespace carom::play {
namespace {

constexpr std::uint64_t kTickMs = 16;  // a tick, near enough

// Ticks in [0, until_ms) whose input moves, one tick every kTickMs.
int moving_ticks(HeldKeys& keys, std::uint64_t until_ms) {
    int moving = 0;
    for (std::uint64_t t = 0; t < until_ms; t += kTickMs)
        moving += keys.input(t).moving() ? 1 : 0;
    return moving;
}

TEST_CASE("held keys: without releases, a tap holds its direction for the hold window") {
    HeldKeys keys({.hold_ms = 520, .repeat_ms = 120, .kick_ms = 100, .releases = false});
    keys.press(Key::right, 0);
    CHECK(moving_ticks(keys, 2000) == 33);  // 520 ms, however short the tap
}

TEST_CASE("held keys: with releases, a 50 ms tap steers for the ticks it was down") {
    HeldKeys keys({.hold_ms = 520, .repeat_ms = 120, .kick_ms = 100, .releases = true});
    int moving = 0;
    for (std::uint64_t t = 0; t < 2000; t += kTickMs) {
        if (t == 160) keys.press(Key::right, t);
        if (t == 208) keys.release(Key::right);  // 48 ms later
        const game::Input input = keys.input(t);
        moving += input.moving() ? 1 : 0;
        if (input.moving()) CHECK(input == game::Input::move(0));
    }
    CHECK(moving == 3);
}

TEST_CASE("held keys: with releases, a tap between two ticks still steers one") {
    HeldKeys keys({.releases = true});
    keys.input(0);
    keys.press(Key::kick, 5);
    keys.release(Key::kick);
    CHECK(keys.input(16).kick());
    CHECK_FALSE(keys.input(32).kick());
}

TEST_CASE("held keys: with releases, a diagonal exactly while both keys are down") {
    HeldKeys keys({.releases = true});
    keys.press(Key::up, 0);
    CHECK(keys.input(0) == game::Input::move(4));
    keys.press(Key::right, 10);
    CHECK(keys.input(16) == game::Input::move(2));  // up and right: 45°
    keys.release(Key::up);
    CHECK(keys.input(32) == game::Input::move(0));
    keys.release(Key::right);
    CHECK_FALSE(keys.input(48).moving());
}

TEST_CASE("held keys: with releases, of two opposite keys down the later pressed steers") {
    HeldKeys keys({.releases = true});
    keys.press(Key::left, 0);
    keys.press(Key::right, 5);
    CHECK(keys.input(16) == game::Input::move(0));
    keys.release(Key::right);
    CHECK(keys.input(32) == game::Input::move(8));  // left again: it is still down
}

}  // namespace
}  // namespace carom::play
