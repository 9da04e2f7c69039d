#include "view.hpp"

#include <algorithm>
#include <cstdio>

namespace carom::tool {
namespace {

std::string speed_text(double speed) {
    char text[16];
    if (speed < 1.0) {
        std::snprintf(text, sizeof text, "%gx", speed);
    } else {
        std::snprintf(text, sizeof text, "%.0fx", speed);
    }
    return text;
}

}  // namespace

void draw_timeline(const SeekEngine& engine, const Playback& p, render::Grid& grid, int row) {
    const std::uint32_t rate = engine.replay().header.tick_rate;
    const bool at_end = p.position >= p.length;
    // Appended piece by piece: gcc 12 warns (-Wrestrict, wrongly) on a chain of operator+.
    std::string left = at_end ? "end" : p.paused ? "||" : ">";
    left.append(" ").append(replay_view::timeline_text(p.position, p.length, rate)).append(" ");
    std::string right = " ";
    right.append(speed_text(p.speed));
    int x = grid.put(0, row, left, render::Ink::text);
    const int bar = grid.width() - x - static_cast<int>(right.size()) - 2;
    if (bar >= 4) {
        grid.put(x, row, "[", render::Ink::text);
        const int x0 = x + 1;
        const auto column = [&](std::uint64_t t) {
            const std::uint64_t len = std::max<std::uint64_t>(p.length, 1);
            const std::uint64_t c = std::min(t, len) * static_cast<std::uint64_t>(bar - 1) / len;
            return x0 + static_cast<int>(c);
        };
        const int head = column(p.position);
        for (int c = x0; c < x0 + bar; ++c)
            grid.set(c, row, {c < head ? U'=' : U'-', render::Ink::wall});
        for (const GoalMark& g : engine.goals())
            grid.set(column(g.tick), row,
                     {U'o', g.team == game::Team::left ? render::Ink::team_left
                                                       : render::Ink::team_right});
        grid.set(head, row, {U'|', render::Ink::alert});
        x = x0 + bar;
        grid.put(x, row, "]", render::Ink::text);
        ++x;
    }
    grid.put(x, row, right, render::Ink::text);
}

render::Grid compose(const SeekEngine& engine, const ViewOptions& options, const Playback& playback,
                     int width, int height) {
    render::Grid grid(width, height);
    const int reserved = playback.help.empty() ? 1 : 2;
    if (width < 4 || height < reserved + 3) return grid;
    render::SceneBuilder builder;
    const render::Grid top = render::render(build_scene(builder, engine, options), width,
                                            height - reserved, options.glyphs);
    for (int y = 0; y < top.height(); ++y)
        for (int x = 0; x < width; ++x)
            grid.set(x, y, top.at(x, y));
    if (!playback.help.empty()) grid.put(0, height - 2, playback.help, render::Ink::text);
    draw_timeline(engine, playback, grid, height - 1);

    if (const std::string banner = end_banner(engine); !banner.empty()) {
        const std::string boxed = "  " + banner + "  ";
        const int w = std::min(static_cast<int>(boxed.size()), width);
        const int x0 = (width - w) / 2;
        const int y0 = std::max((height - reserved) / 2, 1);
        grid.put(x0, y0, boxed, render::Ink::alert);
    }
    return grid;
}

}  // namespace carom::tool
