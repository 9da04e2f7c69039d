#pragma once
// A client the server has accepted: where it is, what it plays, its inputs on
// the way in and the newest state it holds, which its updates start from.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/protocol/seal.hpp"
#include "endpoint.hpp"
#include "full_state_budget.hpp"
#include "input_queue.hpp"
#include "round_trip.hpp"

namespace carom::server {

// The chunks of the room's map a client asked for and not yet sent.
struct MapSend {
    std::deque<std::uint32_t> due;
    std::vector<bool> queued;  // per chunk: in `due`
    bool completed = false;    // the client holds the map
};

struct Session {
    std::uint32_t client_id = 0;
    std::uint64_t token = 0;                 // the hello's reclaim token (0: none)
    std::optional<std::uint64_t> player_id;  // on a token server: the connect token's
    // The keys agreed in the handshake: every datagram of the session both
    // ways is sealed with them; one that does not open is dropped.
    std::optional<protocol::SessionSeal> seal;
    protocol::Key client_key{};  // the ConnectResponse's, that agreed them
    // Updates go on the ticks where (tick + spread) is a multiple of the
    // interval: sessions counted as accepted, so clients alternate evenly.
    std::uint32_t spread = 0;
    Endpoint endpoint;
    std::string name;
    std::uint32_t room = 0;
    std::optional<game::Slot> slot;  // none: a spectator
    InputQueue inputs;

    bool connected = true;  // false: timed out, slot kept for the grace window
    std::uint64_t last_heard_tick = 0;
    std::uint64_t away_since_tick = 0;

    // The newest server tick whose state the client holds (its ack; 0: none).
    std::uint64_t acked = 0;
    // A spectator's acknowledgement no update has yet started from: the next
    // does, so that the client measures its round trip (it times the first
    // update built on each acknowledgement); the others start from a recent
    // update's tick.
    bool ack_unanswered = false;
    // The last FullState sent, while the client has not acknowledged it:
    // updates go against it meanwhile (0: none pending).
    std::uint64_t full_sent_tick = 0;
    FullStateBudget full_budget;
    // Its acknowledgements' round trip: a pending FullState is sent again
    // after about 1.5 of it.
    RoundTrip round_trip;
    // The first FullState to a client holding nothing goes out twice, the
    // same datagrams a couple of ticks apart: the copy still to send.
    std::vector<std::vector<std::uint8_t>> full_copy;
    // The newest input of this client's applied by each recent tick (players):
    // an update says how far it moved since its baseline.
    struct Applied {
        std::uint64_t tick = 0;
        std::uint32_t sequence = 0;
    };
    std::vector<Applied> applied;  // by tick modulo its size

    // From its first MapRequest until it holds the map.
    std::optional<MapSend> map_send;

    std::optional<std::uint32_t> applied_at(std::uint64_t tick) const {
        if (applied.empty()) return std::nullopt;
        const Applied& a = applied[tick % applied.size()];
        if (a.tick != tick) return std::nullopt;
        return a.sequence;
    }
};

}  // namespace carom::server
