#include "carom/protocol/map_search.hpp"

#include <cstdlib>
#include <system_error>

namespace carom::protocol {

std::vector<std::filesystem::path> map_search_dirs() {
    std::vector<std::filesystem::path> dirs;
    if (const char* env = std::getenv("CAROM_MAPS")) {
        std::string_view rest = env;
        while (!rest.empty()) {
            const std::size_t colon = rest.find(':');
            const std::string_view entry = rest.substr(0, colon);
            if (!entry.empty()) dirs.emplace_back(entry);
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::canonical("/proc/self/exe", ec);
    if (!ec) {
        dirs.push_back(exe.parent_path() / "maps");
        dirs.push_back(exe.parent_path().parent_path() / "share" / "carom" / "maps");
    }
    dirs.emplace_back(CAROM_INSTALLED_MAPS_DIR);
    return dirs;
}

Result<std::filesystem::path> resolve_map(std::string_view argument,
                                          const std::vector<std::filesystem::path>& dirs) {
    const std::string arg(argument);
    if (arg.empty()) return fail("empty map name");
    const auto ends_with = [&arg](std::string_view suffix) {
        return arg.size() > suffix.size() &&
               arg.compare(arg.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (arg.find('/') != std::string::npos || ends_with(".json") || ends_with(".hbs"))
        return std::filesystem::path(arg);
    std::string tried;
    for (const std::filesystem::path& dir : dirs) {
        const std::filesystem::path file = dir / (arg + ".json");
        std::error_code ec;
        if (std::filesystem::is_regular_file(file, ec)) return file;
        tried += (tried.empty() ? "" : ", ") + dir.string();
    }
    return fail("map '" + arg + "' not found in " +
                (tried.empty() ? std::string("no directory") : tried) +
                " (give a path, or a directory in CAROM_MAPS)");
}

}  // namespace carom::protocol
