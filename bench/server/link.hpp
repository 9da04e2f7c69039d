#pragma once
// Bandwidth as players see it: a real Server and its client Connections in
// one process, every datagram both ways through its own simulated link
// (shared/linksim), on a simulated clock. The clients play the game's bot
// on their copy (client::BotDriver), as carom-loadgen's do, and each holds an exact copy of the
// match.
#include <cstdint>
#include <filesystem>
#include <string>

namespace carom::bench {

struct LinkCondition {
    double rtt_ms = 0;
    double jitter_ms = 0;     // each way, ±
    double loss_percent = 0;  // each way
};

struct LinkRunOptions {
    std::filesystem::path map;
    std::uint32_t clients = 0;  // 0: every player slot of the map
    double seconds = 60;
    std::uint64_t seed = 1;
    LinkCondition link;
};

// Where the downstream bytes go, per client per second: the sum is the
// payload the server sent.
struct DownstreamBytes {
    // ServerUpdates: the FlatBuffers root offset, identifier, vtable and
    // table offset (20 bytes each), the MAC (4), the tick (2) and the state check (2).
    double framing = 0, mac = 0, tick = 0, state = 0;  // mac: the seal (header and tag)
    // The stream: the baseline's age, the sequence, the count of changes,
    // changes sent for the first time and again (their tick step, slot and
    // change code), and the bits left unused (the head's 6 bytes are always
    // sent; the last byte's padding).
    double age = 0, sequence = 0, count = 0, first_changes = 0, resent_changes = 0, unused = 0;
    // `more` when the stream outgrows the head: its offset, length, padding.
    double more_framing = 0;
    // Roster changes, match starts, the tick time: the rare fields.
    double rare = 0;
    // Every FullState datagram.
    double full_states = 0;
};

// Per client (the mean over the clients), over the whole run.
struct LinkFigures {
    double down_bytes_per_s = 0;  // payload the server sent to the client
    double down_datagrams_per_s = 0;
    double up_bytes_per_s = 0;  // payload the client sent
    double up_datagrams_per_s = 0;
    double mean_update_bytes = 0;   // ServerUpdate datagrams
    double full_state_bytes = 0;    // the largest FullState datagram
    std::uint64_t full_states = 0;  // all clients together (datagrams)
    DownstreamBytes down;
    // The information floor: the players' input changes over the match, as
    // the replay stores them (varint of tick step and slot, then the input
    // byte), per second. Every client needs all of them.
    double floor_bytes_per_s = 0;
    std::uint64_t input_changes = 0;
    // Player ticks where the server had no input of the player's and held
    // the last one, of all player ticks.
    double repeated_share = 0;
    std::uint64_t undecodable = 0;      // updates clients could not read or apply
    std::uint64_t hash_mismatches = 0;  // state checks that failed at a client
    std::uint64_t resyncs = 0;          // copies dropped for a FullState
    std::uint32_t clients = 0;
};

LinkFigures run_link(const LinkRunOptions& options);

}  // namespace carom::bench
