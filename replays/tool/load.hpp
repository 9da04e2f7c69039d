#pragma once
// Reads a replay for a command; an unreadable file is reported on stderr.
#include <cstdint>
#include <optional>
#include <string>

#include "carom/replay/reader.hpp"

namespace carom::tool {

std::optional<replay::Replay> load(const std::string& path, const char* command);
// A 64-bit hash as JSON shows it: 16 lowercase hex digits, as a string (a number
// past 2^53 is rounded by JavaScript and many JSON tools).
std::string hex64(std::uint64_t value);
// "at byte N: reason" for a replay that was read only in part.
std::string describe(const replay::ReadProblem& problem);

}  // namespace carom::tool
