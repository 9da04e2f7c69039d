#pragma once
// The terminal as carom's programs use it (ncursesw): grids of cells out,
// keys in, nothing else. Constructing it takes the terminal over; destroying
// it (on every exit path, exceptions included) gives it back as it was.
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>

#include "carom/render/grid.hpp"
#include "carom/terminal/keyboard.hpp"

struct screen;  // ncurses' SCREEN

namespace carom::terminal {

class Terminal {
  public:
    // Throws std::runtime_error ("not a terminal") when stdin/stdout is not
    // one. With the kitty keyboard protocol (asked for, or found by asking
    // the terminal), its flags are pushed, and popped when this goes.
    explicit Terminal(bool force_ascii, Keyboard keyboard = Keyboard::legacy);
    // A screen of `width` × `height` on `out` (any file: benchmarks count
    // what ncurses writes there), as TERM `term`; no keys are read.
    Terminal(std::FILE* out, std::FILE* in, const char* term, bool utf8, int width, int height);
    ~Terminal();
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;

    bool utf8() const { return utf8_; }
    int width() const;
    int height() const;
    // Copies the grid to the screen; ncurses sends only the cells that changed.
    void draw(const render::Grid& grid);
    // The next key waiting, or nullopt when none is (a resize reads as Kind::other:
    // the next frame takes the new size). Without the kitty protocol every
    // key is a press; with it, releases and repeats come too, and Ctrl-C,
    // which the protocol sends as a key, raises SIGINT as the tty would.
    std::optional<Key> key();
    // Whether keys come with their releases (the kitty keyboard protocol is on).
    bool reports_releases() const { return kitty_; }

  private:
    void set_up();
    // The colour pair of a stadium's colour (0xRRGGBB): the nearest colour
    // the terminal has, each made once; the ink's pair when pairs run out.
    short pair_of(std::uint32_t rgb, render::Ink ink);

    std::optional<Key> kitty_key();

    ::screen* screen_ = nullptr;  // the off-screen terminal's, else null (stdscr's)
    bool kitty_ = false;          // stdin is read here, ncurses reads no keys
    KittyKeyParser parser_;
    bool utf8_ = false;
    bool colour_ = false;
    std::map<short, short> rgb_pairs_;  // terminal colour -> its pair
};

}  // namespace carom::terminal
