// A stadium's colours on the terminal (terminal.hpp): the nearest colour the
// terminal has, as the escape sequence ncurses writes for it.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "carom/terminal/terminal.hpp"

namespace carom::terminal {
namespace {

// What ncurses writes to draw `grid` on a TERM `term` screen.
std::string drawn(const render::Grid& grid, const char* term) {
    std::FILE* out = std::tmpfile();
    std::FILE* in = std::tmpfile();
    REQUIRE(out != nullptr);
    REQUIRE(in != nullptr);
    {
        Terminal screen(out, in, term, true, grid.width(), grid.height());
        screen.draw(grid);
    }
    std::string bytes;
    std::rewind(out);
    for (int c = std::fgetc(out); c != EOF; c = std::fgetc(out))
        bytes += static_cast<char>(c);
    std::fclose(out);
    std::fclose(in);
    return bytes;
}

TEST_CASE("terminal_draws_a_stadium_colour_as_the_nearest_the_terminal_has") {
    render::Grid grid(4, 1);
    grid.set(0, 0, {U'#', render::Ink::wall, 0x00FF00});  // a green net
    grid.set(1, 0, {U'#', render::Ink::wall, 0xFFCCCC});  // a pale red post
    // 256 colours: the 6 x 6 x 6 cube, 16 + 36 r + 6 g + b.
    const std::string xterm256 = drawn(grid, "xterm-256color");
    CHECK(xterm256.find("\x1b[38;5;46m") != std::string::npos);   // (0, 5, 0)
    CHECK(xterm256.find("\x1b[38;5;224m") != std::string::npos);  // (5, 4, 4)
    // Eight colours: green, and white for the pale red (every channel counts).
    const std::string xterm = drawn(grid, "xterm");
    CHECK(xterm.find("\x1b[32m") != std::string::npos);
    CHECK(xterm.find("\x1b[37m") != std::string::npos);
    // A wall without a colour of its own keeps its ink's (white, dim).
    render::Grid plain(1, 1);
    plain.set(0, 0, {U'#', render::Ink::wall});
    CHECK(drawn(plain, "xterm-256color").find("38;5;") == std::string::npos);
}

}  // namespace
}  // namespace carom::terminal
