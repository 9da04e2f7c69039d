#include "json.hpp"

#include <cmath>

#include <fmt/format.h>

namespace carom::bench {

std::string json_number(double value, std::string_view format) {
    return std::isfinite(value) ? fmt::format(fmt::runtime(format), value) : "null";
}

std::string json_string(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            quoted += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
            quoted += c;
        }
    }
    return quoted + "\"";
}

}  // namespace carom::bench
