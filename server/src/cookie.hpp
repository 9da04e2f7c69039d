#pragma once
// Stateless connection cookies: a keyed hash (SipHash via libsodium) of the
// client's address, port and a time bucket, so the server allocates nothing
// for an address until it proves it receives at that address.
#include <array>
#include <cstdint>

#include "endpoint.hpp"

namespace carom::server {

class CookieJar {
  public:
    // A random key per server start: cookies do not survive a restart.
    CookieJar();
    // For tests: a fixed key.
    explicit CookieJar(const std::array<std::uint8_t, 16>& key) : key_(key) {}

    std::uint64_t issue(const Endpoint& from, std::uint64_t bucket) const;
    // Accepts cookies of this bucket and the previous one, so a cookie issued
    // just before a bucket boundary still works.
    bool check(const Endpoint& from, std::uint64_t bucket, std::uint64_t cookie) const;

  private:
    std::array<std::uint8_t, 16> key_{};
};

}  // namespace carom::server
