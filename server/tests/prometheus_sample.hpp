#pragma once
// Reads one figure out of carom-server's /metrics (Prometheus text format).
#include <string>

namespace carom::test {

// The value of the first sample line that starts with `series` and a space; -1 when absent.
inline double sample(const std::string& text, const std::string& series) {
    std::size_t at = 0;
    while ((at = text.find(series + " ", at)) != std::string::npos) {
        if (at == 0 || text[at - 1] == '\n') return std::stod(text.substr(at + series.size() + 1));
        at += series.size();
    }
    return -1.0;
}

}  // namespace carom::test
