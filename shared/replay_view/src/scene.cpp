#include "carom/replay_view/scene.hpp"

#include <algorithm>

namespace carom::replay_view {

render::Scene build_scene(render::SceneBuilder& builder, const SeekEngine& engine,
                          const ViewOptions& options) {
    const game::Match& m = engine.match();
    const std::uint64_t tick = engine.tick();
    render::SceneRequest request;
    request.followed = options.follow;
    request.kickoff =
        tick - std::min(tick, engine.kickoff_at_or_before(tick)) < render::kKickoffShownTicks;
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
    h.banner = render::phase_banner(m, engine.goal_at_or_before(tick));
    if (options.follow && *options.follow < m.slot_count())
        h.note = "following " + render::display_name(m, *options.follow) +
                 (m.active(*options.follow) ? "" : " (not playing)");
    return scene;
}

render::Scene build_scene(render::SceneBuilder& builder, const Takeover& takeover,
                          const ViewOptions& options) {
    const game::Match& m = takeover.match();
    render::SceneRequest request;
    request.followed = takeover.slot();
    const std::optional<std::uint64_t> kickoff = takeover.last_kickoff();
    request.kickoff = kickoff && m.tick() - *kickoff < render::kKickoffShownTicks;
    request.roster = options.roster;
    render::Scene scene = builder.build(m, request);
    render::Hud& h = scene.hud;
    h.tick_rate_hz = game::kTickRate;
    h.banner = render::phase_banner(m, takeover.last_goal());
    h.note = "you: " + render::display_name(m, takeover.slot());
    return scene;
}

std::string end_banner(const SeekEngine& engine) {
    if (engine.tick() != engine.last_tick()) return {};
    const replay::Replay& r = engine.replay();
    const game::Match& m = engine.match();
    const std::uint32_t left = m.score(game::Team::left);
    const std::uint32_t right = m.score(game::Team::right);
    if (m.phase() == game::Phase::finished) return render::final_banner(left, right);
    if (r.problem)
        return "the file stops here (tick " + std::to_string(engine.tick()) + ", damaged at byte " +
               std::to_string(r.problem->offset) + ": " + r.problem->reason + ")";
    return "the file ends here, unfinished (left " + std::to_string(left) + " : " +
           std::to_string(right) + " right)";
}

}  // namespace carom::replay_view
