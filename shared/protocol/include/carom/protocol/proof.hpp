#pragma once
// The proofs of the per-tick messages: the low 32 bits of SipHash-2-4
// (libsodium's crypto_shorthash) keyed by the session secret from Accepted.
// Only the session's two ends know the secret, so an off-path attacker who
// forges the other end's address cannot make a message the receiver takes
// (one chance in 2^32 a try). A ServerUpdate's proof also covers the state
// hash after its tick: the client that re-simulates to the same state
// computes the same proof, and one that drifted cannot.
//
// In its own library (carom::proof), apart from carom::protocol: the
// cross-compiled protocol tests of the determinism matrix need no libsodium.
#include <cstdint>

namespace carom::protocol {

// ServerUpdate.head.proof: of the tick and the state hash after it.
std::uint32_t update_proof(std::uint64_t secret, std::uint64_t tick, std::uint64_t state_hash);
// ClientUpdate.head.proof: of the newest input's sequence (0 without inputs)
// and the acknowledged tick (0 without one).
std::uint32_t client_proof(std::uint64_t secret, std::uint32_t sequence, std::uint64_t ack);

}  // namespace carom::protocol
