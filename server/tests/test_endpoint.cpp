#include <doctest/doctest.h>

#include <unordered_set>

#include "endpoint.hpp"

using carom::server::Endpoint;
using carom::server::EndpointHash;

TEST_CASE("endpoints that differ in address or port hash apart") {
    // Many clients behind few addresses (one NAT, or loopback in tests) differ
    // only in the port and the last address bytes: those must not cancel out.
    std::unordered_set<std::size_t> hashes;
    std::size_t count = 0;
    for (unsigned host = 0; host < 128; ++host) {
        for (unsigned port = 0x9C00; port < 0x9E00; ++port) {
            Endpoint e;
            e.address[10] = e.address[11] = 0xFF;
            e.address[12] = 10;
            e.address[15] = static_cast<std::uint8_t>(host);
            e.port = static_cast<std::uint16_t>(port);
            hashes.insert(EndpointHash{}(e));
            ++count;
        }
    }
    CHECK(hashes.size() == count);

    Endpoint v6;
    v6.address[0] = 0x20;
    v6.address[1] = 0x01;
    Endpoint other = v6;
    other.address[7] = 1;
    CHECK(EndpointHash{}(v6) != EndpointHash{}(other));
    CHECK(EndpointHash{}(v6) == EndpointHash{}(Endpoint(v6)));
}
