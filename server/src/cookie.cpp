#include "cookie.hpp"

#include <sodium.h>

#include <cstring>
#include <stdexcept>

namespace carom::server {
namespace {

static_assert(crypto_shorthash_KEYBYTES == 16 && crypto_shorthash_BYTES == 8);

}  // namespace

CookieJar::CookieJar() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    randombytes_buf(key_.data(), key_.size());
}

std::uint64_t CookieJar::issue(const Endpoint& from, std::uint64_t bucket) const {
    std::array<std::uint8_t, 16 + 2 + 4 + 8> message{};
    std::memcpy(message.data(), from.address.data(), 16);
    message[16] = static_cast<std::uint8_t>(from.port >> 8);
    message[17] = static_cast<std::uint8_t>(from.port & 0xFF);
    for (int i = 0; i < 4; ++i)
        message[18 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(from.link >> (8 * i));
    for (int i = 0; i < 8; ++i)
        message[22 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(bucket >> (8 * i));
    std::array<std::uint8_t, 8> out{};
    crypto_shorthash(out.data(), message.data(), message.size(), key_.data());
    std::uint64_t cookie = 0;
    for (int i = 0; i < 8; ++i)
        cookie |= std::uint64_t{out[static_cast<std::size_t>(i)]} << (8 * i);
    return cookie;
}

bool CookieJar::check(const Endpoint& from, std::uint64_t bucket, std::uint64_t cookie) const {
    if (issue(from, bucket) == cookie) return true;
    return bucket > 0 && issue(from, bucket - 1) == cookie;
}

}  // namespace carom::server
