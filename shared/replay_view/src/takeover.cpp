#include "carom/replay_view/takeover.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "carom/game/bot.hpp"
#include "carom/game/tick_log.hpp"
#include "carom/replay/field_diff.hpp"

namespace carom::replay_view {

std::vector<game::RosterEntry> roster_at(const replay::Replay& replay, std::uint64_t tick) {
    std::vector<std::optional<game::RosterEntry>> held(2 *
                                                       std::size_t{replay.header.map.team_size});
    for (const game::RosterEntry& p : replay.header.players)
        if (p.slot < held.size()) held[p.slot] = p;
    for (const game::RosterChange& c : replay.roster) {
        if (c.tick > tick) break;  // by tick: the rest come after
        if (c.slot >= held.size()) continue;
        if (c.join) {
            held[c.slot] = game::RosterEntry{c.slot, c.name, c.bot};
        } else {
            held[c.slot].reset();
        }
    }
    std::vector<game::RosterEntry> out;
    for (const auto& entry : held)
        if (entry) out.push_back(*entry);
    return out;
}

Status can_take_over(const replay::Replay& replay, std::uint64_t tick, game::Slot slot) {
    if (tick > replay.last_tick())
        return fail("tick " + std::to_string(tick) +
                    " is past the end of the replay (its last is " +
                    std::to_string(replay.last_tick()) + ")");
    if (tick < replay.first_tick())
        return fail("tick " + std::to_string(tick) + " is before the replay starts (tick " +
                    std::to_string(replay.first_tick()) + ")");
    const std::uint32_t slots = 2 * replay.header.map.team_size;
    if (slot >= slots)
        return fail("slot " + std::to_string(slot) + " is out of range (the map has " +
                    std::to_string(slots) + " slots)");
    for (const game::RosterEntry& p : roster_at(replay, tick))
        if (p.slot == slot) return {};
    return fail("nobody holds slot " + std::to_string(slot) + " at tick " + std::to_string(tick));
}

Result<Takeover> Takeover::start(const replay::Replay& replay, replay::ParentReplay parent,
                                 const game::Match& at, game::Slot slot, Others others,
                                 const std::filesystem::path& path) {
    const std::uint64_t tick = at.tick();
    if (Status possible = can_take_over(replay, tick, slot); !possible) return possible.error();
    auto checked = game::CheckedMap::check(at.map());
    if (!checked) return checked.error();
    // The branch is recorded by this core, which hashes as its own files do
    // (an older replay's state plays the same; only its hash differs).
    auto match = std::make_unique<game::Match>(std::move(*checked), at.seed());
    const game::MatchState state = at.save();
    match->restore(state);
    if (!replay::diff_states(state, match->save()).empty())
        return fail("the state at tick " + std::to_string(tick) + " does not restore exactly");
    std::vector<game::RosterEntry> players = roster_at(replay, tick);
    for (game::RosterEntry& p : players)
        if (p.slot == slot) p.bot = false;  // a person steers it now
    auto recorder = std::make_unique<replay::MatchRecorder>(
        path, *match, "carom-replay play (takeover)", players, replay.header.final_pause_ticks,
        replay::kFormatVersion, replay::FileWork{}, std::move(parent));
    if (Status written = recorder->write_error(); !written) return written.error();
    return Takeover(replay, std::move(match), std::move(recorder), slot, others, path);
}

Takeover::Takeover(const replay::Replay& replay, std::unique_ptr<game::Match> match,
                   std::unique_ptr<replay::MatchRecorder> recorder, game::Slot slot, Others others,
                   std::filesystem::path path)
    : replay_(&replay),
      match_(std::move(match)),
      recorder_(std::move(recorder)),
      slot_(slot),
      others_(others),
      start_tick_(match_->tick()),
      path_(std::move(path)),
      inputs_(match_->slot_count()) {
    // As a re-simulation from this state: every slot holds its last input.
    for (game::Slot s = 0; s < match_->slot_count(); ++s)
        held_.push_back(match_->last_input(s));
    const auto after = [this](const auto& c) { return c.tick <= start_tick_; };
    next_input_ = static_cast<std::size_t>(
        std::partition_point(replay.inputs.begin(), replay.inputs.end(), after) -
        replay.inputs.begin());
    next_roster_ = static_cast<std::size_t>(
        std::partition_point(replay.roster.begin(), replay.roster.end(), after) -
        replay.roster.begin());
}

bool Takeover::playing_recorded() const {
    return others_ == Others::recorded && match_->tick() < replay_->last_tick();
}

void Takeover::apply_recorded_roster(std::uint64_t tick) {
    for (const game::RosterChange& c :
         game::changes_at<game::RosterChange>(replay_->roster, next_roster_, tick)) {
        // The taken slot is the host's; a change the branch's match cannot
        // take (its own history differs) is left out.
        if (c.slot == slot_ || c.slot >= match_->slot_count()) continue;
        if (c.join && !match_->active(c.slot)) {
            recorder_->joining(*match_, c.slot, c.name, c.bot);
            match_->join(c.slot, c.name);
        } else if (!c.join && match_->active(c.slot)) {
            recorder_->leaving(*match_, c.slot);
            match_->leave(c.slot);
        } else {
            continue;
        }
        held_[c.slot] = game::Input{};
    }
}

Status Takeover::step(game::Input input) {
    if (finished_) throw std::logic_error("takeover: finished");
    const bool recorded = playing_recorded();
    const std::uint64_t tick = match_->tick() + 1;
    if (recorded) {
        apply_recorded_roster(tick);
        for (const replay::InputChange& c :
             game::changes_at<replay::InputChange>(replay_->inputs, next_input_, tick))
            if (c.slot < held_.size()) held_[c.slot] = c.input;
    }
    for (game::Slot s = 0; s < match_->slot_count(); ++s) {
        if (s == slot_) {
            inputs_[s] = input;
        } else if (recorded) {
            inputs_[s] = held_[s];
        } else {
            inputs_[s] = game::bot_input(*match_, s);
        }
    }
    const auto events = match_->step(inputs_);
    for (const game::MatchEvent& e : events) {
        if (e.kind == game::MatchEvent::Kind::goal) last_goal_ = e;
        if (e.kind == game::MatchEvent::Kind::kickoff) last_kickoff_ = e.tick;
    }
    return recorder_->stepped(*match_, events);
}

Result<replay::Footer> Takeover::finish() {
    if (finished_) throw std::logic_error("takeover: finished twice");
    finished_ = true;
    return recorder_->finish(*match_);
}

}  // namespace carom::replay_view
