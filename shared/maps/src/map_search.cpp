#include "carom/maps/map_search.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <system_error>

#include "carom/maps/map_file.hpp"

namespace carom::maps {

std::vector<std::filesystem::path> map_search_dirs(std::span<const std::filesystem::path> first) {
    std::vector<std::filesystem::path> dirs(first.begin(), first.end());
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

bool plain_map_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
}

Result<std::filesystem::path> find_map_file(std::string_view name,
                                            std::span<const std::filesystem::path> dirs) {
    std::string quoted(1, '\'');  // appended: g++ 12 -O3 warns falsely on "'" + string
    quoted.append(name).push_back('\'');
    if (!plain_map_name(name))
        return fail("map name " + quoted + " is not a plain name ([A-Za-z0-9_-], at most 64)");
    std::string tried;
    for (const std::filesystem::path& dir : dirs) {
        for (const char* extension : {".json", ".hbs"}) {
            std::filesystem::path file = dir / (std::string(name) + extension);
            std::error_code ec;
            if (std::filesystem::is_regular_file(file, ec)) return file;
        }
        tried += (tried.empty() ? "" : ", ") + dir.string();
    }
    const std::string plain(name);
    return fail("map " + quoted + " not found in " +
                (tried.empty() ? std::string("no directory") : tried) + " (as " + plain +
                ".json or " + plain + ".hbs; give a path, or a directory in CAROM_MAPS)");
}

Result<game::Map> find_map(std::string_view name, std::span<const std::filesystem::path> dirs) {
    auto file = find_map_file(name, dirs);
    if (!file) return file.error();
    return load_map_file(*file);
}

Result<std::filesystem::path> resolve_map(std::string_view argument,
                                          std::span<const std::filesystem::path> dirs) {
    const std::string arg(argument);
    if (arg.empty()) return fail("empty map name");
    const auto ends_with = [&arg](std::string_view suffix) {
        return arg.size() > suffix.size() &&
               arg.compare(arg.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (arg.find('/') != std::string::npos || ends_with(".json") || ends_with(".hbs"))
        return std::filesystem::path(arg);
    return find_map_file(arg, dirs);
}

}  // namespace carom::maps
