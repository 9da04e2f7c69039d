#pragma once
// The benchmarks' --json output: one nlohmann object per line, keys in the
// order written, figures rounded as the tables print them.
#include <cmath>
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace carom::bench {

using JsonLine = nlohmann::ordered_json;

// `value` to `decimals` places (NaN and infinities print as null).
inline double rounded(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

inline void print_json_line(const JsonLine& line) {
    fmt::print("{}\n", line.dump());
    std::fflush(stdout);
}

}  // namespace carom::bench
