#pragma once
// Bandwidth as players see it: a real Server and eight client Connections in
// one process, every datagram both ways through its own simulated link
// (shared/linksim), on a simulated clock. The clients play with the chase
// bot, as carom-loadgen's do.
#include <cstdint>
#include <filesystem>
#include <string>

#include "server/delta_bits.hpp"

namespace carom::bench {

struct LinkCondition {
    double rtt_ms = 0;
    double jitter_ms = 0;     // each way, ±
    double loss_percent = 0;  // each way
};

struct LinkRunOptions {
    std::filesystem::path map;
    std::uint32_t clients = 8;
    double seconds = 60;
    std::uint64_t seed = 1;
    LinkCondition link;
    DeltaBits* delta_bits = nullptr;  // when set, every delta snapshot's bits are attributed
};

// Per client (the mean over the clients), over the whole run.
struct LinkFigures {
    double down_bytes_per_s = 0;  // payload the server sent to the client
    double down_datagrams_per_s = 0;
    double up_bytes_per_s = 0;  // payload the client sent
    double up_datagrams_per_s = 0;
    double mean_snapshot_bytes = 0;    // the steady state: every snapshot but full ones
    double full_snapshot_bytes = 0;    // the largest full snapshot sent
    std::uint64_t full_snapshots = 0;  // all clients together
    // The information floor: the players' input changes over the match, as
    // the replay stores them (varint of tick step and slot, then the input
    // byte), per second. Every client needs all of them.
    double floor_bytes_per_s = 0;
    std::uint64_t input_changes = 0;
    // Player ticks where the server had no input of the player's and held
    // the last one, of all player ticks.
    double repeated_share = 0;
    std::uint64_t undecodable = 0;  // snapshots clients could not decode
};

LinkFigures run_link(const LinkRunOptions& options);

}  // namespace carom::bench
