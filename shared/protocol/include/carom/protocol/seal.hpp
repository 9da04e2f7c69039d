#pragma once
// The session's cryptography (libsodium): the keys both ends agree on in the
// handshake, and the sealing of every datagram after it
// (schemas/PROTOCOL.md, "Sealed datagrams").
//
// Keys: the client's ConnectResponse carries a fresh X25519 public key
// (crypto_kx), the server's Challenge its own; each end derives the same two
// 32-byte keys, one a direction. A sealed datagram is
//   [kind: 1 byte][sequence: low 24 bits, little-endian][ciphertext][tag: 16 bytes]
// ChaCha20-Poly1305 (IETF) with the sender's key, the full 64-bit sequence
// as nonce, the 4-byte header as associated data. The ciphertext is the
// FlatBuffers datagram without its file identifier (the kind names it), so
// a sealed datagram is kSealOverheadBytes longer than what it carries.
// The receiver keeps a window of the last kReplayWindow sequences: an old,
// repeated or far-ahead sequence is refused before any byte is trusted.
//
// In its own library (carom::seal), apart from carom::protocol: the
// cross-compiled protocol tests of the determinism matrix need no libsodium.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "carom/protocol/packet.hpp"

namespace carom::protocol {

inline constexpr std::size_t kKeyBytes = 32;
using Key = std::array<std::uint8_t, kKeyBytes>;

struct KeyPair {
    Key public_key{};
    Key secret_key{};
};
// A fresh X25519 key pair (crypto_kx_keypair).
KeyPair make_key_pair();

// One end's keys for a session: it seals with `send`, opens with `receive`.
struct SessionKeys {
    Key send{};
    Key receive{};
};
// The client's keys from its pair and the server's public key, and the
// server's from its pair and the client's public key; nullopt when the
// other's key is not 32 bytes or is refused by crypto_kx (a weak point).
std::optional<SessionKeys> client_session_keys(const KeyPair& client,
                                               std::span<const std::uint8_t> server_public);
std::optional<SessionKeys> server_session_keys(const KeyPair& server,
                                               std::span<const std::uint8_t> client_public);

// 64 random bits, never 0 (libsodium's generator).
std::uint64_t random_u64();

inline constexpr std::size_t kSealHeaderBytes = 4;
inline constexpr std::size_t kSealTagBytes = 16;
// kSealOverheadBytes: header and tag, less the identifier the ciphertext leaves out.
static_assert(kSealOverheadBytes == kSealHeaderBytes + kSealTagBytes - 4);
// Sequences remembered behind the newest: older ones are refused.
inline constexpr std::uint64_t kReplayWindow = 256;
// A sequence further than this ahead of the newest taken is refused.
inline constexpr std::uint64_t kMaxSequenceAhead = std::uint64_t{1} << 16;

// Whether `bytes` is a sealed datagram: its first byte names a kind. A
// FlatBuffers datagram's first byte is the low byte of its root offset, a
// multiple of 4, so the two never meet.
bool is_sealed(std::span<const std::uint8_t> bytes);

// Why a sealed datagram was refused; receivers count them.
enum class SealRefusal : std::uint8_t {
    malformed = 0,  // too short, or of no kind
    bad_tag,        // not sealed with the session's key: forged, cut or changed
    old_sequence,   // kReplayWindow or more behind the newest taken
    replayed,       // a sequence already taken
    far_ahead,      // more than kMaxSequenceAhead ahead of the newest taken
    count_
};
std::string_view to_string(SealRefusal refusal);

// The sequences one end has taken from the other.
class ReplayWindow {
  public:
    ReplayWindow() { seen_.fill(kNone); }
    // The sequence whose low 24 bits are `low`, nearest the newest taken.
    std::uint64_t extend(std::uint32_t low) const;
    // Why `sequence` cannot be taken, or nullopt when it can.
    std::optional<SealRefusal> check(std::uint64_t sequence) const;
    void take(std::uint64_t sequence);
    std::uint64_t newest() const { return newest_; }

  private:
    static constexpr std::uint64_t kNone = ~std::uint64_t{0};
    std::uint64_t newest_ = 0;
    std::array<std::uint64_t, kReplayWindow> seen_{};
};

// The hello's plaintext (ConnectResponse.sealed): the reclaim token, little-endian.
inline constexpr std::size_t kHelloBytes = 8;

// Where a datagram is sealed or opened: 8-byte aligned, as FlatBuffers wants.
using DatagramBuffer = std::array<std::uint64_t, kMaxDatagramBytes / 8 + 1>;

// One end of a session: seals what it sends, opens what it receives.
class SessionSeal {
  public:
    // The ConnectResponse's sealed part is the client's sequence 0: both
    // ends' datagrams count from 1.
    static constexpr std::uint64_t kHelloSequence = 0;

    // `first_sequence`: of the first datagram seal() seals.
    explicit SessionSeal(const SessionKeys& keys, std::uint64_t first_sequence = 1);

    // `datagram`: a Packet, ServerUpdate or ClientUpdate (with its file
    // identifier), at most kMaxSessionDatagramBytes. The sealed datagram, in
    // `out`; empty when `datagram` is none of those or too long.
    std::span<const std::uint8_t> seal(std::span<const std::uint8_t> datagram, DatagramBuffer& out);
    // The datagram inside `sealed` (its identifier restored), in `out`; or
    // empty, with the reason in `refused`. Its sequence is taken only once
    // its tag checked.
    std::span<const std::uint8_t> open(std::span<const std::uint8_t> sealed, DatagramBuffer& out,
                                       SealRefusal& refused);

    // The hello (ConnectResponse.sealed): `plain` sealed with the client's
    // send key at kHelloSequence, and opened with the server's receive key
    // (nullopt: not sealed with it). Opening it takes the sequence.
    std::vector<std::uint8_t> seal_hello(std::span<const std::uint8_t> plain) const;
    std::optional<std::vector<std::uint8_t>> open_hello(std::span<const std::uint8_t> sealed);

    const SessionKeys& keys() const { return keys_; }
    std::uint64_t next_sequence() const { return next_sequence_; }
    const ReplayWindow& window() const { return window_; }

  private:
    SessionKeys keys_;
    std::uint64_t next_sequence_ = 1;
    ReplayWindow window_;
};

}  // namespace carom::protocol
