#include "carom/protocol/proof.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <vector>

namespace carom::protocol {
namespace {

constexpr std::size_t kMacBytes = 4;

// The 16-byte key: the secret, little-endian, then zeros (the secret holds
// the session's 64 bits of entropy).
std::array<unsigned char, crypto_shorthash_KEYBYTES> key_of(std::uint64_t secret) {
    std::array<unsigned char, crypto_shorthash_KEYBYTES> key{};
    for (std::size_t i = 0; i < 8; ++i)
        key[i] = static_cast<unsigned char>(secret >> (8 * i));
    return key;
}

void put(unsigned char* at, std::uint64_t v, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i)
        at[i] = static_cast<unsigned char>(v >> (8 * i));
}

std::uint32_t low32(const unsigned char* message, std::size_t size, std::uint64_t secret) {
    const auto key = key_of(secret);
    std::array<unsigned char, crypto_shorthash_BYTES> out{};
    crypto_shorthash(out.data(), message, size, key.data());
    return static_cast<std::uint32_t>(out[0]) | static_cast<std::uint32_t>(out[1]) << 8 |
           static_cast<std::uint32_t>(out[2]) << 16 | static_cast<std::uint32_t>(out[3]) << 24;
}

}  // namespace

// The messages start with a direction byte, so a MAC of one kind is never one of the other.
std::uint32_t update_mac(std::uint64_t secret, std::uint64_t tick,
                         std::span<const std::uint8_t> datagram, std::size_t mac_at) {
    // 'S', the tick, then the datagram: one contiguous message for SipHash.
    // A thread's buffer keeps its capacity: no allocation a datagram.
    thread_local std::vector<unsigned char> m;
    m.resize(9 + datagram.size());
    m[0] = 'S';
    put(m.data() + 1, tick, 8);
    std::copy(datagram.begin(), datagram.end(), m.begin() + 9);
    if (mac_at + kMacBytes <= datagram.size())
        std::fill_n(m.begin() + 9 + static_cast<std::ptrdiff_t>(mac_at), kMacBytes, 0);
    return low32(m.data(), m.size(), secret);
}

void seal_update(std::span<std::uint8_t> datagram, std::size_t mac_at, std::uint64_t secret,
                 std::uint64_t tick) {
    if (mac_at + kMacBytes > datagram.size()) return;
    put(datagram.data() + mac_at, update_mac(secret, tick, datagram, mac_at), kMacBytes);
}

bool update_is_sealed(std::span<const std::uint8_t> datagram, std::size_t mac_at,
                      std::uint64_t secret, std::uint64_t tick) {
    if (mac_at + kMacBytes > datagram.size()) return false;
    std::uint32_t held = 0;
    for (std::size_t i = 0; i < kMacBytes; ++i)
        held |= static_cast<std::uint32_t>(datagram[mac_at + i]) << (8 * i);
    return held == update_mac(secret, tick, datagram, mac_at);
}

std::uint32_t client_proof(std::uint64_t secret, std::uint32_t sequence, std::uint64_t ack) {
    std::array<unsigned char, 13> m{};
    m[0] = 'C';
    put(m.data() + 1, sequence, 4);
    put(m.data() + 5, ack, 8);
    return low32(m.data(), m.size(), secret);
}

}  // namespace carom::protocol
