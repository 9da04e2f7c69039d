#pragma once
// What a renderer produces: a grid of character cells, each a code point and
// an ink (what it depicts, which a terminal maps to a colour), and for a
// stadium's walls, posts and discs the colour its file gives them. Plain data, so
// tests compare grids as text and the replay viewer can write them anywhere.
#include <cstdint>
#include <string>
#include <vector>

namespace carom::render {

// Inks in order of precedence: where shapes share a cell, the higher one
// colours it (your own disk above the puck above players above the walls).
enum class Ink : std::uint8_t {
    none = 0,
    wall,
    goal_left,  // the goal the left team defends
    goal_right,
    team_left,
    team_right,
    puck,
    own,    // your own disk
    text,   // HUD and help
    alert,  // HUD: GOAL!, final, a problem
    count_
};

// Cell::rgb when the cell takes its ink's colour.
inline constexpr std::uint32_t kInkColour = 0xFFFFFFFFu;

struct Cell {
    char32_t ch = U' ';
    Ink ink = Ink::none;
    std::uint32_t rgb = kInkColour;  // else 0xRRGGBB
    friend bool operator==(const Cell&, const Cell&) = default;
};

class Grid {
  public:
    Grid() = default;
    Grid(int width, int height);

    int width() const { return width_; }
    int height() const { return height_; }
    // Cells outside the grid are ignored on write and blank on read.
    Cell at(int x, int y) const;
    void set(int x, int y, Cell cell);
    // Writes `text` (ASCII) from (x, y), clipped at the right edge; returns the columns used.
    int put(int x, int y, std::string_view text, Ink ink);

    // One row as UTF-8, trailing blanks kept (so widths show in goldens).
    std::string row_utf8(int y) const;
    // Every row, each ended by '\n'.
    std::string text() const;
    // One character per cell naming its ink ('.' none, 'W' wall, ...), for goldens.
    std::string ink_map() const;

    friend bool operator==(const Grid&, const Grid&) = default;

  private:
    int width_ = 0;
    int height_ = 0;
    std::vector<Cell> cells_;
};

// Appends the UTF-8 encoding of `c` to `out`.
void append_utf8(std::string& out, char32_t c);

}  // namespace carom::render
