#include "view.hpp"

#include <algorithm>
#include <cstdio>

namespace carom::tool {
namespace {

constexpr std::uint64_t kKickoffShownTicks = game::kTickRate;

std::string speed_text(double speed) {
    char text[16];
    if (speed < 1.0) {
        std::snprintf(text, sizeof text, "%gx", speed);
    } else {
        std::snprintf(text, sizeof text, "%.0fx", speed);
    }
    return text;
}

bool finished_at_end(const SeekEngine& engine) {
    return engine.tick() == engine.last_tick() && engine.match().phase() == game::Phase::finished;
}

}  // namespace

std::uint64_t timeline_length(const replay::Replay& replay) {
    const bool finished =
        replay.footer.has_value() && replay.footer->result != replay::Outcome::unfinished;
    if (!finished) return replay.last_tick();
    return replay.last_tick() +
           std::max<std::uint64_t>(replay.header.final_pause_ticks, replay.header.tick_rate);
}

std::optional<game::Slot> find_player(const replay::Replay& replay, const std::string& name) {
    std::optional<game::Slot> found;
    for (const game::RosterEntry& p : replay.header.players)
        if (p.name == name) found = p.slot;
    for (const game::RosterChange& c : replay.roster)
        if (c.join && c.name == name && !found) found = c.slot;
    return found;
}

std::string goal_note(const SeekEngine& engine) {
    const game::Match& m = engine.match();
    if (m.phase() != game::Phase::goal_pause) return {};
    const GoalMark* g = engine.goal_at_or_before(engine.tick());
    if (g == nullptr) return {};
    if (g->scorer && *g->scorer < m.slot_count())
        return "by " + render::display_name(m, *g->scorer);
    if (g->own_goal_by && *g->own_goal_by < m.slot_count())
        return "own goal by " + render::display_name(m, *g->own_goal_by);
    return {};
}

render::Scene build_scene(render::SceneBuilder& builder, const SeekEngine& engine,
                          const ViewOptions& options) {
    const game::Match& m = engine.match();
    const std::uint64_t tick = engine.tick();
    render::SceneRequest request;
    request.followed = options.follow;
    request.kickoff = tick - std::min(tick, engine.kickoff_at_or_before(tick)) < kKickoffShownTicks;
    request.roster = options.roster;
    request.is_bot = [&engine, &m](game::Slot s) {
        // The header names the bots among the players it starts with.
        for (const game::RosterEntry& p : engine.replay().header.players)
            if (p.slot == s && p.name == m.name(s)) return p.bot;
        return false;
    };
    render::Scene scene = builder.build(m, request);

    render::Hud& h = scene.hud;
    h.tick_rate_hz = engine.replay().header.tick_rate;
    h.note = goal_note(engine);
    if (h.note.empty() && options.follow && *options.follow < m.slot_count())
        h.note = "following " + render::display_name(m, *options.follow) +
                 (m.active(*options.follow) ? "" : " (not playing)");
    return scene;
}

std::string end_banner(const SeekEngine& engine) {
    if (engine.tick() != engine.last_tick()) return {};
    const replay::Replay& r = engine.replay();
    const game::Match& m = engine.match();
    const std::string score = "left " + std::to_string(m.score(game::Team::left)) + " : " +
                              std::to_string(m.score(game::Team::right)) + " right";
    if (finished_at_end(engine)) {
        const std::uint32_t l = m.score(game::Team::left);
        const std::uint32_t rt = m.score(game::Team::right);
        const char* result = l > rt ? "left won" : rt > l ? "right won" : "draw";
        return "FINAL  " + score + "  " + result;
    }
    if (r.problem)
        return "the file stops here (tick " + std::to_string(engine.tick()) + ", damaged at byte " +
               std::to_string(r.problem->offset) + ": " + r.problem->reason + ")";
    return "the file ends here, unfinished (" + score + ")";
}

void draw_timeline(const SeekEngine& engine, const Playback& p, render::Grid& grid, int row) {
    const std::uint32_t rate = engine.replay().header.tick_rate;
    const bool at_end = p.position >= p.length;
    // Appended piece by piece: gcc 12 warns (-Wrestrict, wrongly) on a chain of operator+.
    std::string left = at_end ? "end" : p.paused ? "||" : ">";
    left.append(" ").append(clock_text(p.position, rate)).append(" / ");
    left.append(clock_text(p.length, rate)).append(" ");
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
