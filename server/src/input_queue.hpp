#pragma once
// One player's inputs on their way into the match. Clients send each input
// several times (their newest K in every packet), so the queue drops
// duplicates and inputs already applied, applies one per tick in sequence
// order, and repeats the last one when nothing new has arrived.
#include <array>
#include <cstddef>
#include <cstdint>

#include "carom/game/input.hpp"

namespace carom::server {

class InputQueue {
  public:
    // Inputs buffered ahead of the match beyond this are dropped (oldest
    // first): a client running fast must not build up latency without bound.
    static constexpr std::size_t kMaxBuffered = 32;

    enum class Offer : std::uint8_t { queued, duplicate, stale };
    // Bits are cleaned (game::Input::from_bits) before they are queued.
    // Sequences wrap at 2^32 (protocol::sequence_after): one is new when it
    // is ahead of the last applied by 1 .. kSequenceWindow, modulo 2^32;
    // anything else is stale.
    Offer offer(std::uint32_t sequence, std::uint8_t bits);

    // The input for this tick, and the sequence it came from (unchanged when repeated).
    game::Input next();
    std::uint32_t last_applied_sequence() const { return last_sequence_; }
    std::uint64_t repeated() const { return repeated_; }
    std::uint64_t overflowed() const { return overflowed_; }
    // After a match restarts or a slot is reclaimed: forget the held input, keep sequences.
    void hold_idle() { held_ = game::Input{}; }

  private:
    void drop_oldest();

    struct Pending {
        std::uint32_t sequence = 0;
        game::Input input;
    };
    // Ascending by sequence, in place: every client packet offers K inputs,
    // and a node allocation per new one showed in the server's profile.
    // Ascending by distance from last_sequence_ (which wraps with them).
    std::array<Pending, kMaxBuffered + 1> pending_{};
    std::size_t count_ = 0;
    std::uint32_t last_sequence_ = 0;
    game::Input held_;
    std::uint64_t repeated_ = 0;
    std::uint64_t overflowed_ = 0;
};

}  // namespace carom::server
