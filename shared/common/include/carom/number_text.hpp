#pragma once
// The shortest text that reads back as the same double ("0.1", "1e+300"),
// for messages and reports. std::to_chars where the standard library has it
// for doubles; emscripten's libc++ does not, so there the shortest of
// printf's %.Ng that reads back.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace carom {

inline std::string number_text(double value) {
    char buffer[64];
#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 14000
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
        if (std::strtod(buffer, nullptr) == value || value != value) break;
    }
    return buffer;
#else
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
#endif
}

}  // namespace carom
