#pragma once
// What the C handles hold. Each wraps the C++ object carom's own programs
// use: nothing here re-implements the game.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "api_support.hpp"
#include "carom.h"
#include "carom/game/match.hpp"
#include "carom/replay/replay.hpp"
#include "carom/replay/resimulation.hpp"

struct carom_map {
    carom::game::CheckedMap checked;
    std::uint64_t hash = 0;  // protocol::map_hash: states carry it, restores check it
};

// A match the caller owns, or one borrowed from a replay or a client (then
// `owned` is empty and the owner keeps `match` and `events` current).
struct carom_match {
    std::optional<carom::game::Match> owned;
    const carom::game::Match* match = nullptr;
    std::uint64_t map_hash = 0;
    std::vector<carom::game::MatchEvent> events;  // of the last step
};

struct carom_state {
    carom::game::MatchState state;
    std::uint64_t map_hash = 0;
};

struct carom_replay {
    carom::replay::Replay replay;
    std::uint64_t map_hash = 0;
    std::optional<carom::game::CheckedMap> map;      // the header's, checked at the first restart
    std::optional<carom::replay::Resimulation> sim;  // at the replay's position
    carom_match view;                                // borrows sim's match
};

namespace carom::capi {

// The handle of a map (validated again: a map from a file or the wire was
// checked when decoded, but a handle is only ever made of a playable one).
carom_map* new_map(game::Map map);
// A parsed map, or the parser's message as CAROM_ERROR_DATA.
game::Map take_map(Result<game::Map> map);

// Fills *out with the map `load()` makes (the usual status and error).
carom_status make_map(carom_map** out, auto&& load) {
    return guarded([&] {
        require(out, "out");
        *out = new_map(load());
    });
}

// A borrowed view of `match`, with `events` as its last step's.
void borrow(carom_match& view, const game::Match& match, std::uint64_t map_hash,
            std::span<const game::MatchEvent> events);

// The owned match of a handle, or CAROM_ERROR_STATE for a borrowed one.
game::Match& owned(carom_match* match);

}  // namespace carom::capi
