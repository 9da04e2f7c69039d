#pragma once
// What the host watches: traffic, drops by reason, and tick times. The logic
// counts; the host (which owns the clock) adds tick durations and prints.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "carom/protocol/packet.hpp"

namespace carom::server {

// Why a datagram that passed verification was still not used.
enum class Drop : std::uint8_t {
    unpadded_request = 0,  // a ConnectRequest too short to answer safely
    unknown_sender,        // input from an address without a session
    wrong_client_id,
    unexpected_type,     // a server-to-client body sent to the server
    unsealed,            // a datagram of the session in the clear (forged)
    rate_limited,        // a handshake packet from an address over its reply budget
    wrong_map,           // a MapRequest for another map than the session's room plays
    bad_tag,             // a sealed datagram not sealed with the session's key (forged, changed)
    old_sequence,        // a sealed datagram older than the replay window
    replayed_sequence,   // a sealed datagram whose sequence was taken before
    far_ahead_sequence,  // a sealed datagram further ahead than a peer can be
    bad_hello,           // a ConnectResponse whose key or sealed hello is not sound
    replayed_handshake,  // a ConnectResponse whose key was used before (replayed)
    count_
};
const char* to_string(Drop drop);

struct Stats {
    std::uint64_t packets_in = 0, bytes_in = 0, packets_out = 0, bytes_out = 0;
    std::array<std::uint64_t, static_cast<std::size_t>(protocol::PacketError::count_)> invalid{};
    std::array<std::uint64_t, static_cast<std::size_t>(Drop::count_)> dropped{};
    // Handshakes answered Denied, by reason.
    std::array<std::uint64_t, static_cast<std::size_t>(net::DenyReason::MAX) + 1> denied{};
    std::uint64_t inputs_stale = 0, inputs_duplicate = 0, inputs_repeated = 0;
    // Inputs dropped unapplied from a full queue (a client sending faster
    // than the ticks run: its oldest queued input goes).
    std::uint64_t inputs_overflowed = 0;
    // Inputs first received as a redundant copy (their own packet was lost
    // or late): what input redundancy saved.
    std::uint64_t inputs_recovered = 0;
    // Sent: full states (a FullState, one or more datagrams) and updates (a ServerUpdate).
    std::uint64_t full_states = 0, updates = 0;
    std::uint64_t full_state_bytes = 0;  // the datagram bytes of those full states
    // A full state was due but its session had spent its budget (FullStateBudget):
    // nothing went to it that tick.
    std::uint64_t full_states_held_back = 0;
    std::uint64_t ticks = 0, ticks_dropped = 0;
    // Ticks run back to back, right after another in the same wake-up, to catch up.
    std::uint64_t ticks_catch_up = 0;
    // Map transfers (a session's first MapRequest starts one; its first
    // state acknowledged completes it; its end before that fails it), and
    // the chunks and map bytes sent.
    std::uint64_t map_transfers_started = 0, map_transfers_completed = 0;
    std::uint64_t map_transfers_failed = 0, map_chunks_out = 0, map_bytes_out = 0;
    // Status queries answered, and refused (unpadded or over the rate: also
    // counted in `dropped` by reason).
    std::uint64_t status_answered = 0, status_refused = 0;

    std::uint64_t invalid_total() const;

    // One room's faults (room.hpp): replays that could not be created or
    // written (that match went on unrecorded), and rooms paused by an
    // exception in their step (the other rooms played on).
    std::uint64_t replay_write_errors = 0;
    std::uint64_t rooms_failed = 0;
    // The replay directory's disk budget: bytes of the replays kept
    // (finished and being written), and finished ones it removed.
    std::uint64_t replay_bytes_kept = 0;
    std::uint64_t replay_files_removed = 0;
};

// The host's receive path: how often it stopped reading to let a tick run,
// and the datagrams the kernel dropped meanwhile (the socket buffer was full
// because the server left them unread: the cost of the budget under a flood).
struct ReceiveStats {
    std::uint64_t wakeups = 0;          // readiness events handled
    std::uint64_t datagrams = 0;        // read from the socket
    std::uint64_t yields_budget = 0;    // stopped at the per-wake-up datagram budget
    std::uint64_t yields_tick_due = 0;  // stopped because a tick was due
    std::uint64_t dropped_unread = 0;   // dropped by the kernel, unread (SO_RXQ_OVFL)
};

// Tick durations (or lateness) since the last report, for p50/p99.
class TickTimes {
  public:
    void add(double ms) { samples_.push_back(ms); }
    // p in [0, 1]; 0 when empty.
    double percentile(double p) const;
    double max() const;
    std::size_t count() const { return samples_.size(); }
    void clear() { samples_.clear(); }

  private:
    std::vector<double> samples_;
};

// What the host measures of its ticks between two reports: the work inside a
// tick, and how late each tick started against its schedule (a stall shows
// here, not in the work). The work's parts: the rooms' steps and updates
// (Server::tick), the UDP sends, and the WebSocket door's hand-over.
struct TickFigures {
    TickTimes work_ms;
    TickTimes late_ms;
    TickTimes rooms_ms;
    TickTimes udp_ms;
    TickTimes door_ms;
    void clear() {
        for (TickTimes* t : {&work_ms, &late_ms, &rooms_ms, &udp_ms, &door_ms})
            t->clear();
    }
};

}  // namespace carom::server
