// The kitty keyboard protocol: its key sequences parsed, and the question
// of whether a terminal speaks it, asked of a pseudo-terminal.
#include <doctest/doctest.h>
#include <pty.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "carom/terminal/keyboard.hpp"

namespace carom::terminal {
namespace {

using Kind = Key::Kind;
using Action = Key::Action;

std::vector<Key> parse(std::string_view bytes) {
    KittyKeyParser parser;
    parser.feed(bytes);
    std::vector<Key> keys;
    while (auto key = parser.next())
        keys.push_back(*key);
    return keys;
}

TEST_CASE("kitty keys: a press and a release of d, as kitty sends them") {
    const auto keys = parse("\x1b[100u\x1b[100;1:3u");
    REQUIRE(keys.size() == 2);
    CHECK(keys[0].kind == Kind::character);
    CHECK(keys[0].ch == U'd');
    CHECK(keys[0].action == Action::press);
    CHECK(keys[1].ch == U'd');
    CHECK(keys[1].action == Action::release);
}

TEST_CASE("kitty keys: repeats, shifted letters, arrows, space, Tab, Enter and Ctrl-C") {
    const auto keys = parse(
        "\x1b[119;1:2u\x1b[119;2u\x1b[A\x1b[1;1:3D\x1b[32u\x1b[9u\x1b[13u"
        "\x1b[99;5u");
    REQUIRE(keys.size() == 8);
    CHECK((keys[0].ch == U'w' && keys[0].action == Action::repeat));
    CHECK((keys[1].ch == U'w' && keys[1].action == Action::press && !keys[1].ctrl));
    CHECK((keys[2].kind == Kind::up && keys[2].action == Action::press));
    CHECK((keys[3].kind == Kind::left && keys[3].action == Action::release));
    CHECK(keys[4].ch == U' ');
    CHECK(keys[5].ch == U'\t');
    CHECK(keys[6].ch == U'\r');
    CHECK((keys[7].ch == U'c' && keys[7].ctrl));
}

TEST_CASE("kitty keys: a sequence cut between reads waits for its end") {
    KittyKeyParser parser;
    parser.feed("\x1b[100;1");
    CHECK_FALSE(parser.next());
    parser.feed(":3u");
    const auto key = parser.next();
    REQUIRE(key);
    CHECK(key->action == Action::release);
    CHECK_FALSE(parser.next());
}

TEST_CASE("kitty keys: modifier keys and the private use area are other keys, junk is dropped") {
    const auto keys = parse("\x1b[57441u\x1bX\x1b[2~x");
    REQUIRE(keys.size() == 4);
    CHECK(keys[0].kind == Kind::other);                              // left shift alone
    CHECK((keys[1].kind == Kind::character && keys[1].ch == U'X'));  // a lone ESC is dropped
    CHECK(keys[2].kind == Kind::other);                              // insert
    CHECK((keys[3].kind == Kind::character && keys[3].ch == U'x'));
    KittyKeyParser endless;
    endless.feed("\x1b[" + std::string(100, '1'));
    CHECK_FALSE(endless.next());  // no key is that long: dropped, not kept forever
    endless.feed("\x1b[100u");
    CHECK(endless.next());
}

// A pseudo-terminal whose far end answers the question as `reply` says.
bool ask_a_terminal_that_answers(const std::string& reply) {
    int far = -1, near = -1;
    REQUIRE(openpty(&far, &near, nullptr, nullptr, nullptr) == 0);
    std::thread terminal([far, reply] {
        std::string query;
        char buffer[64];
        while (query.find("\x1b[c") == std::string::npos) {
            const ssize_t n = read(far, buffer, sizeof buffer);
            if (n <= 0) return;
            query.append(buffer, static_cast<std::size_t>(n));
        }
        if (!reply.empty()) CHECK(write(far, reply.data(), reply.size()) > 0);
    });
    const bool speaks = speaks_kitty_keyboard(near, near, std::chrono::milliseconds(300));
    terminal.join();
    close(near);
    close(far);
    return speaks;
}

TEST_CASE("kitty keys: a terminal that answers CSI ? u speaks the protocol") {
    CHECK(ask_a_terminal_that_answers("\x1b[?0u\x1b[?62;22c"));
}

TEST_CASE("kitty keys: one that answers the device attributes alone, or nothing, does not") {
    CHECK_FALSE(ask_a_terminal_that_answers("\x1b[?62;22c"));
    CHECK_FALSE(ask_a_terminal_that_answers(""));
}

TEST_CASE("kitty keys: --keyboard's names") {
    CHECK(keyboard_named("auto") == Keyboard::automatic);
    CHECK(keyboard_named("kitty") == Keyboard::kitty);
    CHECK(keyboard_named("legacy") == Keyboard::legacy);
    CHECK_FALSE(keyboard_named("xterm"));
}

}  // namespace
}  // namespace carom::terminal
