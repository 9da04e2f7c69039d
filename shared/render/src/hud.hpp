#pragma once
// The HUD line as parts, most important first, each with its ink.
#include <string>
#include <vector>

#include "carom/render/render.hpp"

namespace carom::render {

struct HudPart {
    std::string text;
    Ink ink = Ink::text;
};

std::vector<HudPart> hud_parts(const Hud& hud);
// The leading parts that fit in `width` columns, two blanks between them.
std::vector<HudPart> fitting_parts(const Hud& hud, int width);

}  // namespace carom::render
