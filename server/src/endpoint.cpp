#include "endpoint.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cstring>

namespace carom::server {

std::string Endpoint::to_string() const {
    const std::string door = link == 0 ? "" : fmt::format("ws#{} ", link);
    const auto& a = address;
    const bool v4_mapped = a[10] == 0xFF && a[11] == 0xFF &&
                           std::all_of(a.begin(), a.begin() + 10, [](auto b) { return b == 0; });
    if (v4_mapped) return fmt::format("{}{}.{}.{}.{}:{}", door, a[12], a[13], a[14], a[15], port);
    std::string s = door + "[";
    for (std::size_t i = 0; i < 16; i += 2) {
        if (i > 0) s += ':';
        s += fmt::format("{:x}", (a[i] << 8) | a[i + 1]);
    }
    return s + fmt::format("]:{}", port);
}

namespace {

// splitmix64's finaliser: a bijection that spreads every input bit.
std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

std::size_t EndpointHash::operator()(const Endpoint& e) const noexcept {
    std::uint64_t high = 0, low = 0;
    std::memcpy(&high, e.address.data(), 8);
    std::memcpy(&low, e.address.data() + 8, 8);
    // The port is mixed in after the address, so it cannot cancel address bits.
    return static_cast<std::size_t>(
        mix(mix(low ^ high * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t{e.link} << 16 | e.port)));
}

}  // namespace carom::server
