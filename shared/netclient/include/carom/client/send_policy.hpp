#pragma once
// When a client speaks (schemas/PROTOCOL.md, "When a client sends"): at once
// when its input changes, and on the next ticks again, so that a lost
// datagram costs no input; otherwise only to acknowledge the newest state it
// holds, at a lower rate, often enough that the server's updates (every input
// change since the acknowledged tick) stay short. The server repeats a
// player's last input on the ticks nothing new came, so an input that did not
// change need not travel. No clocks: one call a client tick.
#include <cstdint>
#include <optional>

#include "carom/game/input.hpp"

namespace carom::client {

struct SendPolicyConfig {
    // Ticks an input change goes out on: its own (with its new sequence) and
    // the next ones (the same inputs again), each datagram carrying the
    // inputs of the run not yet shown applied. Three: a change whose every
    // datagram is lost waits for the next acknowledgement, ticks in which
    // the server steps the old input and the prediction goes astray; with
    // two copies, at 5 % loss, one change in 8000 rather than 400.
    std::uint32_t change_ticks = 3;
    // Without a change, a player acknowledges a newer state it holds at most
    // every this many ticks; a spectator, whose updates wait on nobody and
    // start from a recent update rather than its acknowledgement, less
    // often. 1: every tick a newer state came, as a client that sends every tick.
    std::uint32_t ack_ticks = 5;
    std::uint32_t spectator_ack_ticks = 36;
    // A change after ticks not sent goes out with the tick before it (its
    // input unchanged) in its first datagram: the server, whose queue ran
    // empty, applies that one on the tick it arrives and the change a tick
    // later, as it does each input while they flow; when the first datagram
    // is lost, the next brings the change in time for that same tick. What a
    // predicting client wants (it counts on when its inputs apply), at a
    // tick of latency.
    bool cushion = false;
    // Every tick's input goes out, changed or not, and a spectator
    // acknowledges every newer state, as before clients sent by need: the
    // baseline the benchmarks measure against.
    bool every_tick = false;
};

class SendPolicy {
  public:
    enum class Send : std::uint8_t {
        nothing,
        input,  // this tick's input (a change), with the run's not yet shown applied
        ack,    // the acknowledgement, with the run's inputs still unapplied
    };

    explicit SendPolicy(SendPolicyConfig config = {}) : config_(config) {}

    // One client tick: the player's input (none for a spectator) and the
    // tick of the newest state held (none: it holds nothing).
    Send tick(std::optional<game::Input> input, std::optional<std::uint64_t> held);
    // A FullState was just taken: acknowledged on the next tick and again on
    // the one after (as a change's copy), so that the server's updates move
    // onto it, and it stops resending it, unless both datagrams are lost.
    void ack_soon() { ack_soon_ = 2; }
    // A new session: nothing sent yet.
    void reset();

  private:
    SendPolicyConfig config_;
    std::optional<game::Input> last_input_;
    std::uint32_t repeat_left_ = 0;  // ticks the last change still goes out again on
    std::uint32_t since_sent_ = 0;   // ticks since the last datagram
    bool sent_any_ = false;
    std::optional<std::uint64_t> acked_;  // the last acknowledgement sent (none: holds nothing)
    std::uint32_t ack_soon_ = 0;          // ticks an acknowledgement goes out on regardless
};

}  // namespace carom::client
