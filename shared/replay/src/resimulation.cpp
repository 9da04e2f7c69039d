#include "carom/replay/resimulation.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "carom/game/tick_log.hpp"

namespace carom::replay {
namespace {

Result<game::CheckedMap> checked(const Replay& replay, const game::CheckedMap* map) {
    if (map != nullptr) return *map;
    return game::CheckedMap::check(replay.header.map);
}

Resimulation or_throw(Result<Resimulation> sim) {
    if (!sim) throw InconsistentReplay(sim.error().message);
    return std::move(*sim);
}

}  // namespace

Result<Resimulation> Resimulation::from_start(const Replay& replay, const game::CheckedMap* map) {
    if (replay.first_tick() != 0) {
        // The reader puts the starting state first; a Replay built otherwise may lack it.
        if (replay.keyframes.empty() || replay.keyframes.front().state.tick != replay.first_tick())
            return fail("the match starts at tick " + std::to_string(replay.first_tick()) +
                        " without its starting keyframe");
        return from_keyframe(replay, replay.keyframes.front(), map);
    }
    Result<game::CheckedMap> checked_map = checked(replay, map);
    if (!checked_map) return checked_map.error();
    game::Match match(std::move(*checked_map), replay.header.seed,
                      statics_in_hash(replay.header.core_version));
    if (Status joined = game::join_all(match, replay.header.players); !joined)
        return joined.error_in("header players");
    std::vector<game::Input> held(match.slot_count());
    return Resimulation(replay, std::move(match), std::move(held), 0);
}

Result<Resimulation> Resimulation::from_keyframe(const Replay& replay, const Keyframe& keyframe,
                                                 const game::CheckedMap* map) {
    Result<game::CheckedMap> checked_map = checked(replay, map);
    if (!checked_map) return checked_map.error();
    game::Match match(std::move(*checked_map), replay.header.seed,
                      statics_in_hash(replay.header.core_version));
    // Match refuses a state that does not fit it as a bad argument: from a
    // file, it is the file's error.
    try {
        match.restore(keyframe.state);
    } catch (const std::invalid_argument& e) {
        return fail("keyframe at tick " + std::to_string(keyframe.state.tick) + ": " + e.what());
    }
    std::vector<game::Input> held;
    for (const game::PlayerState& p : keyframe.state.players)
        held.push_back(p.last_input);
    return Resimulation(replay, std::move(match), std::move(held), keyframe.state.tick);
}

Resimulation::Resimulation(const Replay& replay, const game::CheckedMap* map)
    : Resimulation(or_throw(from_start(replay, map))) {}

Resimulation::Resimulation(const Replay& replay, const Keyframe& keyframe,
                           const game::CheckedMap* map)
    : Resimulation(or_throw(from_keyframe(replay, keyframe, map))) {}

Resimulation::Resimulation(const Replay& replay, game::Match match, std::vector<game::Input> held,
                           std::uint64_t after_tick)
    : replay_(replay), match_(std::move(match)), held_(std::move(held)) {
    seek_streams(after_tick);
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
