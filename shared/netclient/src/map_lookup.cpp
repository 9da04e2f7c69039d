#include "carom/client/map_lookup.hpp"

#include <algorithm>
#include <system_error>

#include "carom/protocol/map_file.hpp"

namespace carom::client {
namespace {

bool safe_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
}

}  // namespace

Result<game::Map> find_map(std::string_view name, std::span<const std::filesystem::path> dirs) {
    std::string quoted(1, '\'');  // appended: g++ 12 -O3 warns falsely on "'" + string
    quoted.append(name).push_back('\'');
    if (!safe_name(name)) return fail("map name " + quoted + " is not a plain name");
    std::string tried;
    // A carom map file, or a HaxBall stadium (imported to the same bits as
    // the server's import of it).
    for (const std::filesystem::path& dir : dirs) {
        for (const char* extension : {".json", ".hbs"}) {
            const std::filesystem::path file = dir / (std::string(name) + extension);
            std::error_code ec;
            if (std::filesystem::is_regular_file(file, ec)) return protocol::load_map_file(file);
            tried += (tried.empty() ? "" : ", ") + file.string();
        }
    }
    return fail("map " + quoted + " not found (tried: " +
                (tried.empty() ? std::string("no directories") : tried) + ")");
}

}  // namespace carom::client
