#pragma once
// Reads a replay for a command; an unreadable file is reported on stderr.
#include <optional>
#include <string>

#include "carom/replay/reader.hpp"

namespace carom::tool {

std::optional<replay::Replay> load(const std::string& path, const char* command);
// "at byte N: reason" for a replay that was read only in part.
std::string describe(const replay::ReadProblem& problem);

}  // namespace carom::tool
