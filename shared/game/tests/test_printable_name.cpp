// printable_name: what a name may carry to a log or a terminal.
#include <doctest/doctest.h>

#include <string>

#include "carom/game/printable_name.hpp"

using carom::game::printable_name;

TEST_CASE("printable ASCII and valid UTF-8 pass unchanged") {
    CHECK(printable_name("alice") == "alice");
    CHECK(printable_name("Rink (v2) #1 ~ok") == "Rink (v2) #1 ~ok");
    CHECK(printable_name("J\xC3\xBCrgen \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x8F\x92") ==
          "J\xC3\xBCrgen \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x8F\x92");
    CHECK(printable_name("") == "");
}

TEST_CASE("control characters become '?'") {
    CHECK(printable_name(std::string("a\0b", 3)) == "a?b");
    CHECK(printable_name("line\nforged: client 1 left\r") == "line?forged: client 1 left?");
    CHECK(printable_name("tab\tbell\x07"
                         "del\x7F") == "tab?bell?del?");
    CHECK(printable_name("c1 \xC2\x85 next line") == "c1 ? next line");
    CHECK(printable_name("rtl \xE2\x80\xAE"
                         "evil") == "rtl ?evil");
    CHECK(printable_name("sep \xE2\x80\xA8"
                         "x") == "sep ?x");
}

TEST_CASE("terminal escape sequences become one '?'") {
    CHECK(printable_name("\x1B[31mred\x1B[0m") == "?red?");
    CHECK(printable_name("\x1B[2J\x1B[H") == "??");
    CHECK(printable_name("\x1B]0;owned title\x07name") == "?name");
    CHECK(printable_name("\x1B]8;;http://x\x1B\\link") == "?link");
    CHECK(printable_name("\x1B"
                         "c reset") == "? reset");
    CHECK(printable_name("\xC2\x9B"
                         "31mx") == "?x");  // C1 CSI
    CHECK(printable_name("unterminated \x1B[1;2") == "unterminated ?");
    CHECK(printable_name("\x1B") == "?");
}

TEST_CASE("invalid UTF-8 becomes '?' byte by byte") {
    CHECK(printable_name("\xFF\xFE") == "??");
    CHECK(printable_name("a\x80z") == "a?z");             // stray continuation byte
    CHECK(printable_name("\xC0\xAF") == "??");            // overlong '/'
    CHECK(printable_name("\xED\xA0\x80") == "???");       // surrogate
    CHECK(printable_name("\xF4\x90\x80\x80") == "????");  // beyond U+10FFFF
    CHECK(printable_name("cut \xE6\x97") == "cut ??");    // truncated sequence
    CHECK(printable_name("\xE6\x97z") == "??z");
}

TEST_CASE("long names are cut to the limit, never inside a character") {
    const std::string long_ascii(10000, 'x');
    const std::string cleaned = printable_name(long_ascii);
    CHECK(cleaned.size() == 64u);
    CHECK(cleaned == std::string(61, 'x') + "...");
    CHECK(printable_name(std::string(64, 'y')) == std::string(64, 'y'));
    std::string accents;
    for (int i = 0; i < 100; ++i)
        accents += "\xC3\xA9";
    std::string expected;
    for (int i = 0; i < 7; ++i)
        expected += "\xC3\xA9";
    CHECK(printable_name(accents, 10) == expected + "...");
    CHECK(printable_name("abcdef", 2) == "..");
}
