#include "endpoint.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cstring>

namespace carom::server {

std::string Endpoint::to_string() const {
    const auto& a = address;
    const bool v4_mapped = a[10] == 0xFF && a[11] == 0xFF &&
                           std::all_of(a.begin(), a.begin() + 10, [](auto b) { return b == 0; });
    if (v4_mapped) return fmt::format("{}.{}.{}.{}:{}", a[12], a[13], a[14], a[15], port);
    std::string s = "[";
    for (std::size_t i = 0; i < 16; i += 2) {
        if (i > 0) s += ':';
        s += fmt::format("{:x}", (a[i] << 8) | a[i + 1]);
    }
    return s + fmt::format("]:{}", port);
}

std::size_t EndpointHash::operator()(const Endpoint& e) const noexcept {
    std::uint64_t high = 0, low = 0;
    std::memcpy(&high, e.address.data(), 8);
    std::memcpy(&low, e.address.data() + 8, 8);
    // Multiply-xorshift mixing (splitmix64's finaliser) of the 18 bytes folded to 64 bits.
    std::uint64_t z = high * 0x9E3779B97F4A7C15ull ^ low ^ (std::uint64_t{e.port} << 48);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(z ^ (z >> 31));
}

}  // namespace carom::server
