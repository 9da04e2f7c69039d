#include "carom/render/scene_builder.hpp"

#include <algorithm>

#include "carom/game/printable_name.hpp"

namespace carom::render {
namespace {

// The drawn position of disk `i` of a group: the request's, when it has the
// whole group, else the match's.
game::Vec2 drawn(const std::vector<game::Vec2>* given, std::size_t count, std::size_t i,
                 game::Vec2 own) {
    return given != nullptr && given->size() == count ? (*given)[i] : own;
}

Phase phase_of(const game::Match& match, bool kickoff) {
    switch (match.phase()) {
        case game::Phase::goal_pause:
            return Phase::goal;
        case game::Phase::finished:
            return Phase::final;
        case game::Phase::playing:
            break;
    }
    return kickoff ? Phase::kickoff : Phase::playing;
}

}  // namespace

std::string display_name(const game::Match& match, game::Slot slot) {
    return match.name(slot).empty() ? "slot " + std::to_string(slot)
                                    : game::printable_name(match.name(slot));
}

std::string final_banner(std::uint32_t left, std::uint32_t right) {
    std::string text = "FINAL " + std::to_string(left) + "-" + std::to_string(right);
    if (left == right) return text + " DRAW";
    return text + (left > right ? " left wins" : " right wins");
}

std::string phase_banner(const game::Match& m, const game::MatchEvent* goal) {
    if (m.phase() == game::Phase::finished)
        return final_banner(m.score(game::Team::left), m.score(game::Team::right));
    if (m.phase() != game::Phase::goal_pause) return "";
    if (goal == nullptr) return "GOAL!";
    const auto name = [&m](game::Slot s) {
        return s < m.slot_count() ? display_name(m, s) : "slot " + std::to_string(s);
    };
    if (goal->scorer) return "GOAL! " + name(*goal->scorer);
    if (goal->own_goal_by) return "GOAL! own goal by " + name(*goal->own_goal_by);
    return goal->team == game::Team::left ? "GOAL! left" : "GOAL! right";
}

Scene SceneBuilder::build(const game::Match& m, const SceneRequest& request) {
    const game::Map& map = m.map();
    const Positions* at = request.positions;
    disks_.clear();
    for (std::uint32_t i = 0; i < m.puck_count(); ++i)
        disks_.push_back(
            {drawn(at ? &at->pucks : nullptr, m.puck_count(), i, m.puck_disk(i).position),
             map.tuning.puck_radius, Ink::puck});
    // Movable discs look like the posts: obstacles, in the walls' ink (or their own colour).
    for (std::uint32_t i = 0; i < m.disc_count(); ++i)
        disks_.push_back(
            {drawn(at ? &at->discs : nullptr, m.disc_count(), i, m.disc_disk(i).position),
             map.discs[i].radius, Ink::wall, map.discs[i].color});
    for (game::Slot s = 0; s < m.slot_count(); ++s) {
        if (!m.active(s)) continue;
        const bool followed = request.followed == s;
        game::Vec2 p =
            drawn(at ? &at->players : nullptr, m.slot_count(), s, m.player_disk(s).position);
        if (followed && request.followed_at) p = *request.followed_at;
        const Ink ink = followed                           ? Ink::own
                        : m.team_of(s) == game::Team::left ? Ink::team_left
                                                           : Ink::team_right;
        disks_.push_back({p, map.tuning.player_radius, ink, kInkColour, s});
    }
    // The followed player last: drawn over anything it overlaps.
    std::stable_partition(disks_.begin(), disks_.end(),
                          [](const DiskView& d) { return d.ink != Ink::own; });

    roster_.clear();
    if (request.roster) {
        for (game::Slot s = 0; s < m.slot_count(); ++s) {
            if (!m.active(s)) continue;
            roster_.push_back({display_name(m, s), m.team_of(s), m.goals(s),
                               request.is_bot && request.is_bot(s), request.followed == s});
        }
    }

    Scene scene;
    scene.map = &map;
    scene.disks = disks_;
    scene.roster = roster_;
    scene.hud.score = {m.score(game::Team::left), m.score(game::Team::right)};
    scene.hud.ticks_left = m.ticks_left();
    scene.hud.phase = phase_of(m, request.kickoff);
    return scene;
}

}  // namespace carom::render
