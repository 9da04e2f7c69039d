#pragma once
// What one tick of the room's match shows: the clock, the score, who plays,
// and every disk. The client draws, interpolates and steers from frames; it
// takes them from its exact copy of the match (Replica), so they are the
// server's values.
#include <array>
#include <cstdint>
#include <vector>

#include "carom/game/match.hpp"

namespace carom::client {

struct Frame {
    std::uint64_t tick = 0;  // the server tick
    game::Phase phase = game::Phase::playing;
    std::array<std::uint32_t, 2> score{};
    std::uint64_t ticks_left = 0;
    std::uint64_t active_mask = 0;          // bit s: player slot s is in the match
    std::vector<game::DiskSnapshot> disks;  // in DiskLayout's order
};

// Where a frame (and an interpolated sample) keeps each disk: the pucks
// first, then one per player slot, then the map's movable discs.
struct DiskLayout {
    std::uint32_t pucks = 0;
    std::uint32_t slots = 0;
    std::uint32_t discs = 0;

    std::size_t size() const { return std::size_t{pucks} + slots + discs; }
    std::size_t of_slot(game::Slot slot) const { return std::size_t{pucks} + slot; }
    std::size_t of_disc(std::uint32_t disc) const { return std::size_t{pucks} + slots + disc; }
    // A frame of another map (or a damaged one) steers and draws nothing.
    bool fits(const Frame& frame) const { return frame.disks.size() == size(); }
};

DiskLayout disk_layout_of(const game::Match& match);

// `match` as it stands, stamped with `server_tick`.
Frame frame_of(const game::Match& match, std::uint64_t server_tick);

}  // namespace carom::client
