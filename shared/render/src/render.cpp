#include "carom/render/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "canvas.hpp"
#include "hud.hpp"

namespace carom::render {
namespace {

// Walls far behind a goal add nothing: the view keeps at most this much
// around the field.
constexpr double kMarginUnits = 12.0;

// A stadium's colour as drawn: kept unless too dark to see on a dark
// terminal (HaxBall's default line colour is black, on its green grass).
std::uint32_t shown_colour(std::uint32_t rgb) {
    const std::uint32_t r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF;
    return std::max({r, g, b}) < 0x50 ? kInkColour : rgb & 0xFFFFFF;
}

physics::Arc arc_of(const game::Wall& w) {
    return {w.center, physics::length(w.a - w.center), w.a, w.b};
}

// The area to show: the field and the walls around it, up to the margin.
void view_bounds(const game::Map& map, game::Vec2& lo, game::Vec2& hi) {
    lo = {0.0, 0.0};
    hi = map.size;
    const auto grow = [&lo, &hi](const physics::Aabb& a) {
        lo = {std::min(lo.x, a.min.x), std::min(lo.y, a.min.y)};
        hi = {std::max(hi.x, a.max.x), std::max(hi.y, a.max.y)};
    };
    for (const game::Box& b : map.boxes)
        grow(physics::bounds_of(b));
    for (const game::Segment& s : map.segments)
        grow(physics::bounds_of(s));
    for (const game::Wall& w : map.walls) {
        if (!w.visible) continue;
        grow(w.shape == game::Wall::Shape::arc ? physics::bounds_of(arc_of(w))
                                               : physics::bounds_of(game::Segment{w.a, w.b}));
    }
    lo = {std::max(lo.x, -kMarginUnits), std::max(lo.y, -kMarginUnits)};
    hi = {std::min(hi.x, map.size.x + kMarginUnits), std::min(hi.y, map.size.y + kMarginUnits)};
}

// The dot bit of braille pattern U+2800 for dot (column, row) of a cell.
constexpr std::array<std::array<std::uint8_t, kDotsY>, kDotsX> kBrailleBit{{
    {0x01, 0x02, 0x04, 0x40},
    {0x08, 0x10, 0x20, 0x80},
}};

char32_t ascii_of(Ink ink) {
    switch (ink) {
        case Ink::wall:
            return U'#';
        case Ink::goal_left:
        case Ink::goal_right:
            return U'|';
        case Ink::team_left:
            return U'X';
        case Ink::team_right:
            return U'O';
        case Ink::puck:
            return U'*';
        case Ink::own:
            return U'@';
        default:
            return U' ';
    }
}

void blit(const Canvas& canvas, Grid& grid, int top, Glyphs glyphs) {
    const int cells_x = canvas.dots_x() / kDotsX;
    const int cells_y = canvas.dots_y() / kDotsY;
    for (int cy = 0; cy < cells_y; ++cy) {
        for (int cx = 0; cx < cells_x; ++cx) {
            std::uint8_t bits = 0;
            Ink ink = Ink::none;
            std::uint32_t rgb = kInkColour;  // the colour of the first dot of the highest ink
            for (int dx = 0; dx < kDotsX; ++dx) {
                for (int dy = 0; dy < kDotsY; ++dy) {
                    const int i = cx * kDotsX + dx, j = cy * kDotsY + dy;
                    const Ink dot = canvas.at(i, j);
                    if (dot == Ink::none) continue;
                    bits = static_cast<std::uint8_t>(
                        bits |
                        kBrailleBit[static_cast<std::size_t>(dx)][static_cast<std::size_t>(dy)]);
                    if (dot > ink) {
                        ink = dot;
                        rgb = canvas.rgb_at(i, j);
                    }
                }
            }
            if (ink == Ink::none) continue;
            const char32_t ch = glyphs == Glyphs::braille ? char32_t{0x2800} + bits : ascii_of(ink);
            grid.set(cx, top + cy, {ch, ink, rgb});
        }
    }
}

void draw_roster(std::span<const RosterLine> roster, Grid& grid, int top, int rows) {
    // A box in the middle of the arena: one line per player, yours marked.
    std::vector<std::pair<std::string, Ink>> lines;
    lines.emplace_back("roster (Tab hides)", Ink::text);
    for (const RosterLine& r : roster) {
        lines.emplace_back(fmt::format("{}{:<15} {:<5} {:>2}{}", r.you ? '>' : ' ', r.name,
                                       r.team == game::Team::left ? "left" : "right", r.goals,
                                       r.bot ? " bot" : ""),
                           r.team == game::Team::left ? Ink::team_left : Ink::team_right);
    }
    int width = 0;
    for (const auto& [text, ink] : lines)
        width = std::max(width, static_cast<int>(text.size()));
    const int shown = std::min(static_cast<int>(lines.size()), rows);
    const int x0 = std::max((grid.width() - width - 2) / 2, 0);
    const int y0 = top + std::max((rows - shown) / 2, 0);
    for (int i = 0; i < shown; ++i) {
        for (int x = x0; x < x0 + width + 2; ++x)
            grid.set(x, y0 + i, {U' ', Ink::text});
        grid.put(x0 + 1, y0 + i, lines[static_cast<std::size_t>(i)].first,
                 lines[static_cast<std::size_t>(i)].second);
    }
}

}  // namespace

Grid render(const Scene& scene, int width, int height, Glyphs glyphs) {
    Grid grid(width, height);
    if (width < 4 || height < 3) return grid;

    int x = 0;
    for (const HudPart& part : fitting_parts(scene.hud, width)) {
        if (x > 0) x += 2;
        x += grid.put(x, 0, part.text, part.ink);
    }
    const bool help = !scene.help.empty();
    if (help) grid.put(0, height - 1, scene.help, Ink::text);

    const int top = 1;
    const int rows = height - 1 - (help ? 1 : 0);
    if (scene.map == nullptr) return grid;

    game::Vec2 lo;
    game::Vec2 hi;
    view_bounds(*scene.map, lo, hi);
    Canvas canvas(width, rows, lo, hi);
    for (const game::Box& b : scene.map->boxes)
        canvas.box(b, Ink::wall);
    for (const game::Segment& s : scene.map->segments)
        canvas.segment(s, Ink::wall);
    // A stadium's walls as its file draws them (planes and hidden walls not).
    for (const game::Wall& w : scene.map->walls) {
        if (!w.visible || w.shape == game::Wall::Shape::plane) continue;
        if (w.shape == game::Wall::Shape::arc) {
            canvas.arc(arc_of(w), Ink::wall, shown_colour(w.color));
        } else {
            canvas.segment({w.a, w.b}, Ink::wall, shown_colour(w.color));
        }
    }
    for (const game::Post& p : scene.map->posts)
        canvas.disk(p.position, p.radius, Ink::wall, shown_colour(p.color));
    for (const game::Goal& g : scene.map->goals)
        canvas.segment({g.post_a, g.post_b},
                       g.defender == game::Team::left ? Ink::goal_left : Ink::goal_right);
    for (const DiskView& d : scene.disks)
        canvas.disk(d.position, d.radius, d.ink,
                    d.rgb == kInkColour ? kInkColour : shown_colour(d.rgb));
    blit(canvas, grid, top, glyphs);

    if (!scene.roster.empty()) draw_roster(scene.roster, grid, top, rows);
    return grid;
}

}  // namespace carom::render
