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

std::optional<replay::Replay> load(const std::string& path, const char* command) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        std::fprintf(stderr, "carom-replay %s: %s: is a directory\n", command, path.c_str());
        return std::nullopt;
    }
    auto read = replay::read_replay(path);
    if (!read) {
        std::fprintf(stderr, "carom-replay %s: %s: unreadable %s\n", command, path.c_str(),
                     read.error().message.c_str());
        return std::nullopt;
    }
    return *std::move(read);
}

}  // namespace carom::tool
