#pragma once
// The renderer: a pure function from a scene to a grid of cells, so the
// client, the replay viewer and the tests draw the same frame. The terminal
// layer only copies the grid to the screen.
//
// Layout: row 0 is the HUD, the last row the help line (when the scene has
// one), the arena fills the rows between, scaled to fit with a cell taken as
// twice as tall as wide and centred. Any size works; below 3 rows or 4
// columns the grid is blank.
#include "carom/render/grid.hpp"
#include "carom/render/scene.hpp"

namespace carom::render {

enum class Glyphs : std::uint8_t {
    braille,  // UTF-8: 2 × 4 dots a cell, square dots, disks read round
    ascii,    // one character a cell, chosen by what covers most of it
};

Grid render(const Scene& scene, int width, int height, Glyphs glyphs);

// The HUD line alone (row 0 of render()): the figures that fit in `width`,
// least important dropped first.
std::string hud_line(const Hud& hud, int width);
// What the HUD says of the phase: the banner, else "kick-off", "GOAL!",
// "final" or "waiting" ("" while playing).
std::string hud_phase_text(const Hud& hud);
// The HUD's clock: "m:ss" of `ticks_left`, rounded up (0:00 only at the whistle).
std::string hud_clock(std::uint64_t ticks_left, std::uint32_t tick_rate_hz);

}  // namespace carom::render
