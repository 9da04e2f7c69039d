#pragma once
// Where the server logic sends datagrams: the UDP socket in carom-server, an
// in-process link in tests.
#include <cstdint>
#include <span>

#include "endpoint.hpp"

namespace carom::server {

class Transport {
  public:
    virtual ~Transport() = default;
    // Best effort, like UDP: a datagram may be lost; never blocks.
    virtual void send(const Endpoint& to, std::span<const std::uint8_t> datagram) = 0;
};

}  // namespace carom::server
