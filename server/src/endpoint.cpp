#include "endpoint.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>

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

}  // namespace carom::server
