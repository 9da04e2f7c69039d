#include "carom/replay/resimulation.hpp"

#include <algorithm>

namespace carom::replay {
namespace {

game::CheckedMap checked(const Replay& replay, const game::CheckedMap* map) {
    return map != nullptr ? *map : game::CheckedMap(replay.header.map);
}

}  // namespace

Resimulation::Resimulation(const Replay& replay, const game::CheckedMap* map)
    : replay_(replay),
      match_(checked(replay, map), replay.header.seed,
             statics_in_hash(replay.header.core_version)) {
    held_.assign(match_.slot_count(), game::Input{});
    try {
        for (const PlayerInfo& p : replay.header.players)
            match_.join(p.slot, p.name);
    } catch (const std::invalid_argument& e) {
        throw InconsistentReplay(std::string("header players: ") + e.what());
    }
    seek_streams(0);
}

Resimulation::Resimulation(const Replay& replay, const Keyframe& keyframe,
                           const game::CheckedMap* map)
    : replay_(replay),
      match_(checked(replay, map), replay.header.seed,
             statics_in_hash(replay.header.core_version)) {
    try {
        match_.restore(keyframe.state);
    } catch (const std::invalid_argument& e) {
        throw InconsistentReplay("keyframe at tick " + std::to_string(keyframe.state.tick) + ": " +
                                 e.what());
    }
    for (const game::PlayerState& p : keyframe.state.players)
        held_.push_back(p.last_input);
    seek_streams(keyframe.state.tick);
}

void Resimulation::seek_streams(std::uint64_t after_tick) {
    const auto& inputs = replay_.inputs;
    next_input_ = static_cast<std::size_t>(
        std::partition_point(inputs.begin(), inputs.end(),
                             [after_tick](const InputChange& c) { return c.tick <= after_tick; }) -
        inputs.begin());
    const auto& roster = replay_.roster;
    next_roster_ = static_cast<std::size_t>(
        std::partition_point(roster.begin(), roster.end(),
                             [after_tick](const RosterChange& c) { return c.tick <= after_tick; }) -
        roster.begin());
}

Result<std::uint64_t> Resimulation::step() {
    const std::uint64_t tick = match_.tick() + 1;
    const auto& roster = replay_.roster;
    for (; next_roster_ < roster.size() && roster[next_roster_].tick == tick; ++next_roster_) {
        const RosterChange& c = roster[next_roster_];
        try {
            if (c.join) {
                match_.join(c.slot, c.name);
            } else {
                match_.leave(c.slot);
            }
        } catch (const std::invalid_argument& e) {
            return fail("tick " + std::to_string(tick) + ": " + e.what());
        }
        held_[c.slot] = game::Input{};
    }
    const auto& inputs = replay_.inputs;
    for (; next_input_ < inputs.size() && inputs[next_input_].tick == tick; ++next_input_)
        held_[inputs[next_input_].slot] = inputs[next_input_].input;
    events_ = match_.step(held_);
    return match_.state_hash();
}

}  // namespace carom::replay
