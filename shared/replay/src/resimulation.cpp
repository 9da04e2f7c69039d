#include "carom/replay/resimulation.hpp"

#include <algorithm>

#include "carom/game/tick_log.hpp"

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
    if (Status joined = game::join_all(match_, replay.header.players); !joined)
        throw InconsistentReplay(joined.error_in("header players").message);
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
    next_roster_ =
        static_cast<std::size_t>(std::partition_point(roster.begin(), roster.end(),
                                                      [after_tick](const game::RosterChange& c) {
                                                          return c.tick <= after_tick;
                                                      }) -
                                 roster.begin());
}

Result<std::uint64_t> Resimulation::step() {
    const std::uint64_t tick = match_.tick() + 1;
    const auto roster = game::changes_at<game::RosterChange>(replay_.roster, next_roster_, tick);
    const auto set_inputs = [&](std::span<game::Input> held) {
        for (const InputChange& c :
             game::changes_at<InputChange>(replay_.inputs, next_input_, tick))
            held[c.slot] = c.input;
    };
    auto events = game::play_tick(match_, roster, held_, set_inputs);
    if (!events) return events.error();
    events_ = *events;
    return match_.state_hash();
}

}  // namespace carom::replay
