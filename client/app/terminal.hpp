#pragma once
// The terminal as the client uses it (ncursesw): grids of cells out, keys
// in, nothing else. Constructing it takes the terminal over; destroying it
// (on every exit path, exceptions included) gives it back as it was.
#include <cstdint>
#include <cstdio>
#include <optional>

#include "carom/render/grid.hpp"

struct screen;  // ncurses' SCREEN

namespace carom::app {

// A key as the client reads it: WASD and arrows are the same press.
enum class Press : std::uint8_t { up, down, left, right, kick, roster, quit, other };

class Terminal {
  public:
    // Throws std::runtime_error when stdin/stdout is not a terminal.
    explicit Terminal(bool force_ascii);
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
    // The next key waiting, or nullopt when none is.
    std::optional<Press> key();

  private:
    void set_up();

    ::screen* screen_ = nullptr;  // the off-screen terminal's, else null (stdscr's)
    bool utf8_ = false;
    bool colour_ = false;
};

}  // namespace carom::app
