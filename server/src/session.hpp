#pragma once
// A client the server has accepted: where it is, what it plays, its inputs on
// the way in and what it has acknowledged of the snapshots on the way out.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "carom/game/match.hpp"
#include "endpoint.hpp"
#include "input_queue.hpp"

namespace carom::server {

struct Session {
    std::uint32_t client_id = 0;
    std::uint64_t token = 0;
    // Random, from Accepted: every packet of the session must carry it. An
    // off-path attacker who forges the address still does not know it.
    std::uint64_t secret = 0;
    // Snapshots go on the ticks where (tick + spread) is a multiple of the
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

    std::uint64_t acked_snapshot = 0;  // server tick of the newest snapshot it received
    std::uint32_t last_ping_id = 0;
    // The roster is resent until a snapshot carrying it is acknowledged.
    std::uint64_t roster_acked_version = 0;
    std::uint64_t roster_sent_version = 0;
    std::uint64_t roster_sent_tick = 0;
    // Events not yet in a snapshot it acknowledged (server ticks, oldest
    // first): every snapshot carries them, so a lost one loses no goal.
    std::vector<game::MatchEvent> pending_events;
};

}  // namespace carom::server
