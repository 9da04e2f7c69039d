#pragma once
// The keyed checks of the per-tick messages: the low 32 bits of SipHash-2-4
// (libsodium's crypto_shorthash) keyed by the session secret from Accepted.
// Only the session's two ends know the secret, so an off-path attacker who
// forges the other end's address cannot make a message the receiver takes
// (one chance in 2^32 a try).
//
// A ServerUpdate's MAC covers the whole datagram and the full tick, so the
// client knows a forged one before it reads or steps anything; whether its
// copy of the match agrees is a separate, unkeyed field (UpdateHead.state).
//
// In its own library (carom::proof), apart from carom::protocol: the
// cross-compiled protocol tests of the determinism matrix need no libsodium.
#include <cstdint>
#include <span>

namespace carom::protocol {

// UpdateHead.mac of a ServerUpdate datagram whose full tick is `tick`: over
// the datagram with the 4 bytes at `mac_at` (the field itself) taken as zero.
std::uint32_t update_mac(std::uint64_t secret, std::uint64_t tick,
                         std::span<const std::uint8_t> datagram, std::size_t mac_at);
// Writes update_mac() into the datagram's field at `mac_at` (little-endian).
void seal_update(std::span<std::uint8_t> datagram, std::size_t mac_at, std::uint64_t secret,
                 std::uint64_t tick);
// Whether the datagram's field at `mac_at` is the update_mac() of the rest.
bool update_is_sealed(std::span<const std::uint8_t> datagram, std::size_t mac_at,
                      std::uint64_t secret, std::uint64_t tick);

// ClientUpdate.head.proof: of the newest input's sequence (0 without inputs)
// and the acknowledged tick (0 without one).
std::uint32_t client_proof(std::uint64_t secret, std::uint32_t sequence, std::uint64_t ack);

}  // namespace carom::protocol
