#pragma once
// Reads a replay for a command.
#include <cstdint>
#include <string>

#include "carom/replay/reader.hpp"
#include "carom/result.hpp"

namespace carom::tool {

// The replay at `path`, or why not: "PATH: is a directory", "PATH: unreadable
// at byte N: why". The command prints it ("carom-replay info: ...").
Result<replay::Replay> load(const std::string& path);
// A 64-bit hash as JSON shows it: 16 lowercase hex digits, as a string (a number
// past 2^53 is rounded by JavaScript and many JSON tools).
std::string hex64(std::uint64_t value);
// "at byte N: reason" for a replay that was read only in part.
std::string describe(const replay::ReadProblem& problem);

}  // namespace carom::tool
