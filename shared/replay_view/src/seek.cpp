#include "carom/replay_view/seek.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace carom::replay_view {

SeekEngine::SeekEngine(const replay::Replay& replay) : replay_(replay), map_(replay.header.map) {
    for (const game::MatchEvent& e : replay.events) {
        if (e.tick > replay.last_tick()) continue;
        if (e.kind == game::MatchEvent::Kind::goal) goals_.push_back(e);
        if (e.kind == game::MatchEvent::Kind::kickoff) kickoffs_.push_back(e.tick);
    }
    const auto by_tick = [](const GoalMark& a, const GoalMark& b) { return a.tick < b.tick; };
    std::stable_sort(goals_.begin(), goals_.end(), by_tick);
    std::sort(kickoffs_.begin(), kickoffs_.end());
    restart(nullptr);
}

const replay::Keyframe* SeekEngine::keyframe_for(std::uint64_t target) const {
    const auto& kfs = replay_.keyframes;
    const auto after = std::partition_point(
        kfs.begin(), kfs.end(),
        [target](const replay::Keyframe& k) { return k.state.tick <= target; });
    return after == kfs.begin() ? nullptr : &*std::prev(after);
}

void SeekEngine::restart(const replay::Keyframe* keyframe) {
    sim_.reset();
    if (keyframe != nullptr) {
        // A keyframe the match refuses: play from the start instead (slower, still right).
        if (auto from_keyframe = replay::Resimulation::from_keyframe(replay_, *keyframe, &map_)) {
            sim_.emplace(std::move(*from_keyframe));
            return;
        }
    }
    sim_.emplace(replay_, &map_);
}

Status SeekEngine::seek(std::uint64_t target) {
    target = std::clamp(target, replay_.first_tick(), last_tick());
    last_steps_ = 0;
    last_restored_ = false;
    const replay::Keyframe* keyframe = keyframe_for(target);
    const std::uint64_t from_keyframe = target - (keyframe != nullptr ? keyframe->state.tick : 0);
    const std::uint64_t now = tick();
    if (target < now || target - now > from_keyframe) {
        restart(keyframe);
        last_restored_ = true;
    }
    while (tick() < target) {
        if (const auto stepped = sim_->step(); !stepped) return stepped.error();
        ++last_steps_;
    }
    return {};
}

std::optional<std::uint64_t> SeekEngine::next_goal(std::uint64_t tick) const {
    for (const GoalMark& g : goals_)
        if (g.tick > tick) return g.tick;
    return std::nullopt;
}

std::optional<std::uint64_t> SeekEngine::previous_goal(std::uint64_t tick) const {
    std::optional<std::uint64_t> found;
    for (const GoalMark& g : goals_)
        if (g.tick < tick) found = g.tick;
    return found;
}

const GoalMark* SeekEngine::goal_at_or_before(std::uint64_t tick) const {
    const GoalMark* found = nullptr;
    for (const GoalMark& g : goals_)
        if (g.tick <= tick) found = &g;
    return found;
}

std::uint64_t SeekEngine::kickoff_at_or_before(std::uint64_t tick) const {
    std::uint64_t found = 0;
    for (const std::uint64_t k : kickoffs_)
        if (k <= tick) found = k;
    return found;
}

std::string clock_text(std::uint64_t tick, std::uint32_t tick_rate) {
    const std::uint64_t rate = tick_rate == 0 ? 60 : tick_rate;
    const std::uint64_t tenths = tick * 10 / rate;
    char text[48];
    std::snprintf(text, sizeof text, "%llu:%02llu.%llu",
                  static_cast<unsigned long long>(tenths / 600),
                  static_cast<unsigned long long>(tenths / 10 % 60),
                  static_cast<unsigned long long>(tenths % 10));
    return text;
}

std::string timeline_text(std::uint64_t position, std::uint64_t length, std::uint32_t tick_rate) {
    std::string text = clock_text(position, tick_rate);
    return text.append(" / ").append(clock_text(length, tick_rate));
}

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

std::optional<std::uint64_t> parse_time(const std::string& text, std::uint32_t tick_rate) {
    if (text.empty()) return std::nullopt;
    double minutes = 0.0;
    std::string rest = text;
    if (const auto colon = text.find(':'); colon != std::string::npos) {
        const std::string m = text.substr(0, colon);
        if (m.empty() || m.find_first_not_of("0123456789") != std::string::npos)
            return std::nullopt;
        minutes = std::strtod(m.c_str(), nullptr);
        rest = text.substr(colon + 1);
        if (rest.empty()) return std::nullopt;
    }
    if (rest.find_first_not_of("0123456789.") != std::string::npos ||
        std::count(rest.begin(), rest.end(), '.') > 1 || rest == ".")
        return std::nullopt;
    const double seconds = minutes * 60.0 + std::strtod(rest.c_str(), nullptr);
    if (!std::isfinite(seconds) || seconds < 0.0 || seconds > 1e9) return std::nullopt;
    return static_cast<std::uint64_t>(std::llround(seconds * tick_rate));
}

}  // namespace carom::replay_view
