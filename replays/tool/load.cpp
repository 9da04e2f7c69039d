#include "load.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

namespace carom::tool {

std::string hex64(std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

std::string describe(const replay::ReadProblem& problem) {
    return "at byte " + std::to_string(problem.offset) + ": " + problem.reason;
}

Result<replay::Replay> load(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return fail(path + ": is a directory");
    auto read = replay::read_replay(path);
    if (!read) return fail(path + ": unreadable " + read.error().message);
    return read;
}

}  // namespace carom::tool
