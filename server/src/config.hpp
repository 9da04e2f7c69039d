#pragma once
// Everything a host can set on carom-server (flags or CAROM_* environment).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "carom/protocol/seal.hpp"

namespace carom::server {

struct ServerConfig {
    std::vector<std::filesystem::path> maps;  // one per room, cycled; at least one
    std::uint32_t rooms = 1;
    // The tick rate is the game's (game::kTickRate): a match steps 1/60 s a tick,
    // and its replays re-simulate at that rate.
    std::uint32_t update_rate_hz = 60;  // updates per client per second
    std::uint32_t max_clients = 256;    // players and spectators, all rooms
    std::uint32_t max_spectators_per_room = 8;
    std::uint32_t input_redundancy = 8;  // K: inputs per client packet at most
    bool bots = false;                   // fill empty player slots with bots
    // Rooms nobody is in play on (bots' matches, recorded): soak tests and
    // recording bot matches. Otherwise they sleep and cost next to nothing.
    bool run_empty_rooms = false;
    double timeout_s = 5.0;
    double grace_s = 10.0;             // a timed-out player's slot is kept this long
    std::filesystem::path replay_dir;  // empty: no recording
    // The replay directory's disk budget (replay_budget.hpp); 0: no limit.
    double replay_keep_days = 0.0;
    std::uint64_t replay_max_bytes = 0;
    std::uint64_t seed = 1;  // first match's seed; later ones derive from it
    std::vector<std::string> banned_names;
    std::vector<std::uint64_t> banned_ids;  // connect tokens' player ids to refuse
    // --token-key: only players with a connect token made with this key are
    // admitted, for one of `token_servers` ("HOST:PORT", as tokens name them).
    std::optional<protocol::Key> token_key;
    std::vector<std::string> token_servers;
    // Unix seconds now, for tokens' expiry; empty: the system clock.
    std::function<std::uint64_t()> unix_time_s;
    std::uint32_t update_history = 64;  // ticks an update can reach back (room history)
    bool delta_updates = true;          // false: a FullState every time, never an update
    // The final whistle: a finished match stays on the wire this long
    // (phase finished, final score) before the room starts the next.
    double final_pause_s = 5.0;
    // Tests only: called before each room's step with the room and the match
    // tick about to run; what it throws is a fault in that room's step.
    std::function<void(std::uint32_t room, std::uint64_t tick)> room_step_fault;
    // Sessions (players, spectators, away players) from one source IP, any port.
    std::uint32_t max_sessions_per_ip = 4;
    // Replies to handshake packets (ConnectRequest, ConnectResponse) per
    // source IP per second; beyond it the packets are dropped unanswered.
    std::uint32_t handshake_replies_per_ip_s = 64;
    // The server's name in status replies (carom-client --list).
    std::string name = "carom";
    // The map transfer's pace: chunks of 1 KiB a tick to one session, and
    // to all sessions together.
    std::uint32_t map_chunks_per_session_tick = 8;
    std::uint32_t map_chunks_per_tick = 64;
};

}  // namespace carom::server
