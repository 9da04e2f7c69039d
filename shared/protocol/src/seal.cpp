#include "carom/protocol/seal.hpp"

#include <sodium.h>

#include <cstring>
#include <stdexcept>

namespace carom::protocol {
namespace {

static_assert(crypto_kx_PUBLICKEYBYTES == kKeyBytes && crypto_kx_SECRETKEYBYTES == kKeyBytes &&
              crypto_kx_SESSIONKEYBYTES == kKeyBytes);
static_assert(crypto_aead_chacha20poly1305_ietf_KEYBYTES == kKeyBytes &&
              crypto_aead_chacha20poly1305_ietf_ABYTES == kSealTagBytes &&
              crypto_aead_chacha20poly1305_ietf_NPUBBYTES == 12);

constexpr std::size_t kIdentifierBytes = 4;
constexpr std::uint32_t kSequenceMask = 0xFF'FFFF;

// The kinds a sealed datagram's first byte names: none is a multiple of 4.
enum Kind : std::uint8_t { kPacket = 1, kServerUpdate = 2, kClientUpdate = 3 };

void initialise() {
    // Idempotent and thread-safe; the first call picks the fastest code paths.
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

const char* identifier_of(std::uint8_t kind) {
    switch (kind) {
        case kPacket:
            return kPacketIdentifier;
        case kServerUpdate:
            return kServerUpdateIdentifier;
        case kClientUpdate:
            return kClientUpdateIdentifier;
        default:
            return nullptr;
    }
}

std::array<unsigned char, 12> nonce_of(std::uint64_t sequence) {
    std::array<unsigned char, 12> nonce{};
    for (std::size_t i = 0; i < 8; ++i)
        nonce[4 + i] = static_cast<unsigned char>(sequence >> (8 * i));
    return nonce;
}

std::uint8_t* bytes_of(DatagramBuffer& buffer) {
    return reinterpret_cast<std::uint8_t*>(buffer.data());
}

}  // namespace

KeyPair make_key_pair() {
    initialise();
    KeyPair pair;
    crypto_kx_keypair(pair.public_key.data(), pair.secret_key.data());
    return pair;
}

std::optional<SessionKeys> client_session_keys(const KeyPair& client,
                                               std::span<const std::uint8_t> server_public) {
    if (server_public.size() != kKeyBytes) return std::nullopt;
    initialise();
    SessionKeys keys;
    if (crypto_kx_client_session_keys(keys.receive.data(), keys.send.data(),
                                      client.public_key.data(), client.secret_key.data(),
                                      server_public.data()) != 0)
        return std::nullopt;
    return keys;
}

std::optional<SessionKeys> server_session_keys(const KeyPair& server,
                                               std::span<const std::uint8_t> client_public) {
    if (client_public.size() != kKeyBytes) return std::nullopt;
    initialise();
    SessionKeys keys;
    if (crypto_kx_server_session_keys(keys.receive.data(), keys.send.data(),
                                      server.public_key.data(), server.secret_key.data(),
                                      client_public.data()) != 0)
        return std::nullopt;
    return keys;
}

std::uint64_t random_u64() {
    initialise();
    std::uint64_t v = 0;
    while (v == 0)
        randombytes_buf(&v, sizeof v);
    return v;
}

bool is_sealed(std::span<const std::uint8_t> bytes) {
    return !bytes.empty() && (bytes[0] & 3) != 0;
}

std::string_view to_string(SealRefusal refusal) {
    switch (refusal) {
        case SealRefusal::malformed:
            return "malformed seal";
        case SealRefusal::bad_tag:
            return "bad tag";
        case SealRefusal::old_sequence:
            return "old sequence";
        case SealRefusal::replayed:
            return "replayed sequence";
        case SealRefusal::far_ahead:
            return "sequence far ahead";
        case SealRefusal::count_:
            break;
    }
    return "?";
}

std::uint64_t ReplayWindow::extend(std::uint32_t low) const {
    // The signed 24-bit distance from the newest, as extend16 does for 16 bits.
    const std::uint32_t step = (low - static_cast<std::uint32_t>(newest_)) & kSequenceMask;
    const std::int64_t signed_step =
        step >= (kSequenceMask + 1) / 2 ? std::int64_t{step} - (kSequenceMask + 1) : step;
    return newest_ +
           static_cast<std::uint64_t>(signed_step);  // modulo 2^64: far below is far ahead
}

std::optional<SealRefusal> ReplayWindow::check(std::uint64_t sequence) const {
    if (sequence > newest_ && sequence - newest_ > kMaxSequenceAhead) return SealRefusal::far_ahead;
    if (sequence + kReplayWindow <= newest_) return SealRefusal::old_sequence;
    if (seen_[sequence % kReplayWindow] == sequence) return SealRefusal::replayed;
    return std::nullopt;
}

void ReplayWindow::take(std::uint64_t sequence) {
    seen_[sequence % kReplayWindow] = sequence;
    if (sequence > newest_) newest_ = sequence;
}

SessionSeal::SessionSeal(const SessionKeys& keys, std::uint64_t first_sequence)
    : keys_(keys), next_sequence_(first_sequence) {
    initialise();
}

std::span<const std::uint8_t> SessionSeal::seal(std::span<const std::uint8_t> datagram,
                                                DatagramBuffer& out) {
    std::uint8_t kind = 0;
    switch (classify(datagram)) {
        case DatagramKind::packet:
            kind = kPacket;
            break;
        case DatagramKind::server_update:
            kind = kServerUpdate;
            break;
        case DatagramKind::client_update:
            kind = kClientUpdate;
            break;
        default:
            return {};
    }
    if (datagram.size() > kMaxSessionDatagramBytes) return {};
    const std::uint64_t sequence = next_sequence_++;
    std::uint8_t* o = bytes_of(out);
    o[0] = kind;
    for (std::size_t i = 0; i < 3; ++i)
        o[1 + i] = static_cast<std::uint8_t>(sequence >> (8 * i));
    // The plaintext: the root offset, then everything after the identifier.
    std::uint8_t* plain = o + kSealHeaderBytes;
    const std::size_t plain_size = datagram.size() - kIdentifierBytes;
    std::memcpy(plain, datagram.data(), 4);
    std::memcpy(plain + 4, datagram.data() + 8, datagram.size() - 8);
    const auto nonce = nonce_of(sequence);
    crypto_aead_chacha20poly1305_ietf_encrypt_detached(plain, plain + plain_size, nullptr, plain,
                                                       plain_size, o, kSealHeaderBytes, nullptr,
                                                       nonce.data(), keys_.send.data());
    return {o, kSealHeaderBytes + plain_size + kSealTagBytes};
}

std::span<const std::uint8_t> SessionSeal::open(std::span<const std::uint8_t> sealed,
                                                DatagramBuffer& out, SealRefusal& refused) {
    // The smallest FlatBuffers datagram is 8 bytes: 4 of them in the ciphertext.
    if (sealed.size() < kSealHeaderBytes + 4 + kSealTagBytes || sealed.size() > kMaxDatagramBytes) {
        refused = SealRefusal::malformed;
        return {};
    }
    const char* identifier = identifier_of(sealed[0]);
    if (identifier == nullptr) {
        refused = SealRefusal::malformed;
        return {};
    }
    const std::uint32_t low = static_cast<std::uint32_t>(sealed[1]) |
                              static_cast<std::uint32_t>(sealed[2]) << 8 |
                              static_cast<std::uint32_t>(sealed[3]) << 16;
    const std::uint64_t sequence = window_.extend(low);
    if (const auto why = window_.check(sequence)) {
        refused = *why;
        return {};
    }
    const std::size_t plain_size = sealed.size() - kSealHeaderBytes - kSealTagBytes;
    // Opened 4 bytes in, so that the root offset lands before the identifier's place.
    std::uint8_t* o = bytes_of(out);
    const auto nonce = nonce_of(sequence);
    if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(
            o + 4, nullptr, sealed.data() + kSealHeaderBytes, plain_size,
            sealed.data() + kSealHeaderBytes + plain_size, sealed.data(), kSealHeaderBytes,
            nonce.data(), keys_.receive.data()) != 0) {
        refused = SealRefusal::bad_tag;
        return {};
    }
    window_.take(sequence);
    std::memmove(o, o + 4, 4);
    std::memcpy(o + 4, identifier, kIdentifierBytes);
    return {o, plain_size + kIdentifierBytes};
}

std::vector<std::uint8_t> SessionSeal::seal_hello(std::span<const std::uint8_t> plain) const {
    std::vector<std::uint8_t> sealed(plain.size() + kSealTagBytes);
    const auto nonce = nonce_of(kHelloSequence);
    crypto_aead_chacha20poly1305_ietf_encrypt(sealed.data(), nullptr, plain.data(), plain.size(),
                                              nullptr, 0, nullptr, nonce.data(), keys_.send.data());
    return sealed;
}

std::optional<std::vector<std::uint8_t>> SessionSeal::open_hello(
    std::span<const std::uint8_t> sealed) {
    if (sealed.size() < kSealTagBytes) return std::nullopt;
    std::vector<std::uint8_t> plain(sealed.size() - kSealTagBytes);
    const auto nonce = nonce_of(kHelloSequence);
    if (crypto_aead_chacha20poly1305_ietf_decrypt(plain.data(), nullptr, nullptr, sealed.data(),
                                                  sealed.size(), nullptr, 0, nonce.data(),
                                                  keys_.receive.data()) != 0)
        return std::nullopt;
    window_.take(kHelloSequence);
    return plain;
}

}  // namespace carom::protocol
