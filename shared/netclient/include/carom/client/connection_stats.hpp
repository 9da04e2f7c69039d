#pragma once
// What a client connection counted: traffic, what it refused and why, and
// the figures a HUD or a load test reports (round-trip time, update loss).
#include <array>
#include <cstdint>
#include <vector>

#include "carom/protocol/packet.hpp"
#include "carom/protocol/seal.hpp"

namespace carom::client {

struct ConnectionStats {
    static constexpr std::size_t kErrorKinds =
        static_cast<std::size_t>(protocol::PacketError::count_);
    // Round-trip samples kept at most (about 30 minutes of 60 Hz pings).
    static constexpr std::size_t kMaxRttSamples = 100'000;

    std::uint64_t packets_in = 0;
    std::uint64_t bytes_in = 0;
    std::uint64_t packets_out = 0;
    std::uint64_t bytes_out = 0;

    // Refused by protocol::verify_packet, by reason.
    std::array<std::uint64_t, kErrorKinds> invalid{};
    std::uint64_t wrong_protocol = 0;  // verified, but another protocol version
    std::uint64_t unexpected = 0;      // verified, but not meant for a client in this state
    // A handshake reply that does not answer this attempt (a Challenge or
    // Denied without its nonce, a sealed datagram before the keys): forged.
    std::uint64_t unasked = 0;
    // A datagram of the session in the clear (Accepted, FullState, ServerUpdate...): forged.
    std::uint64_t unsealed = 0;
    // Sealed datagrams refused before anything in them is read, by reason:
    // a bad tag (forged, cut or changed on the way), a replayed, old or far-ahead sequence.
    std::array<std::uint64_t, static_cast<std::size_t>(protocol::SealRefusal::count_)>
        refused_sealed{};
    // A sealed ServerUpdate of a tick further ahead than the client's clock
    // allows since the last state it took: dropped before any step.
    std::uint64_t far_ahead = 0;

    // Taken: full states (whole, every part) and updates.
    std::uint64_t states_taken = 0;  // taken: the copy of the match moved to them
    std::uint64_t full_states = 0;
    std::uint64_t updates = 0;
    std::uint64_t taken_bytes = 0;   // datagram bytes of the taken ones (a full state's last part)
    std::uint64_t out_of_order = 0;  // not newer than the state held
    std::uint64_t undecodable = 0;   // stream refused, baseline not held, no state yet...
    std::uint64_t before_map = 0;    // arrived before the map was given
    std::uint64_t updates_missed = 0;  // gaps in the expected tick sequence
    // State checks that failed: a copy of the match that is not the server's
    // (a sealed update that stepped it elsewhere, or a full state that
    // restored to another hash), and the times the copy was dropped for a
    // FullState (at once, on the update that showed it).
    std::uint64_t hash_mismatches = 0;
    std::uint64_t resyncs = 0;
    // Ticks stepped for updates that were then thrown away (a failed state
    // check): the work a datagram cost and that came to nothing. A forged
    // update costs none: it is dropped before any step.
    std::uint64_t steps_discarded = 0;

    std::vector<double> rtt_ms;

    std::uint64_t invalid_total() const;
    // What an attacker's datagrams cost: unasked, unsealed and refused sealed ones.
    std::uint64_t forged_total() const;
    // Fraction of expected updates that never arrived in order, in [0, 1].
    double loss_estimate() const;
};

}  // namespace carom::client
