#pragma once
// Where two states, worlds or starts differ, field by field, with both values.
// What verify and diff print: every value the state hash covers has a name
// here (the match state, the world's hashed values, the header's map).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/replay/replay.hpp"

namespace carom::replay {

struct FieldDiff {
    std::string entity;     // "match", "player 3 (ana)", "puck 0", "disc 0", "static 5", "map"
    std::string field;      // "position.x", "score.left", "box.axis.y", ...
    std::string recorded;   // first side (the file, or A)
    std::string simulated;  // second side (the re-simulation, or B)
};

// Every field where two match states differ, in a fixed order (match,
// players, pucks).
std::vector<FieldDiff> diff_states(const game::MatchState& recorded,
                                   const game::MatchState& simulated);

// The world values a file recorded (Keyframe::world) against a world's own,
// named by the latter, in hash order: at most `max_fields` differences, then
// a line if the counts differ (past that point, values no longer align).
std::vector<FieldDiff> diff_world(std::span<const std::uint64_t> recorded,
                                  std::span<const physics::HashedValue> named,
                                  std::size_t max_fields = 16);

// How two files start differently: versions, seed, tick rate, the final
// pause, the start tick and parent, the players at the start and the map,
// field by field.
std::vector<FieldDiff> diff_starts(const Header& a, const Header& b);

// Formats a double exactly (shortest round-trip form).
std::string exact(double v);

}  // namespace carom::replay
