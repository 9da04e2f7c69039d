#include "carom/maps/map_library.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <system_error>

#include "carom/maps/map_file.hpp"
#include "carom/maps/map_search.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/map_transfer.hpp"

namespace carom::maps {
namespace {

std::optional<std::vector<std::uint8_t>> read_bounded(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::vector<std::uint8_t> bytes(protocol::kMaxMapBytes + 1);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (in.bad()) return std::nullopt;
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > protocol::kMaxMapBytes) return std::nullopt;
    return bytes;
}

}  // namespace

MapLibrary::MapLibrary(std::filesystem::path cache_dir, std::vector<std::filesystem::path> dirs)
    : cache_dir_(std::move(cache_dir)), dirs_(std::move(dirs)) {}

std::filesystem::path MapLibrary::default_cache_dir() {
    // XDG: a relative XDG_CACHE_HOME is invalid and ignored.
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
        return std::filesystem::path(xdg) / "carom" / "maps";
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0')
        return std::filesystem::path(home) / ".cache" / "carom" / "maps";
    return {};
}

std::filesystem::path MapLibrary::cached_file(std::uint64_t hash) const {
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.cmap", static_cast<unsigned long long>(hash));
    return cache_dir_ / name;
}

std::optional<MapLibrary::Found> MapLibrary::find(std::string_view name, std::uint64_t hash) const {
    if (!cache_dir_.empty()) {
        // A damaged or foreign file under the hash's name is passed over (a
        // fetch then writes it anew).
        const std::filesystem::path file = cached_file(hash);
        if (const auto bytes = read_bounded(file);
            bytes && protocol::map_bytes_hash(*bytes) == hash) {
            if (auto map = protocol::map_from_binary(*bytes)) return Found{std::move(*map), file};
        }
    }
    for (const std::filesystem::path& dir : dirs_) {
        auto file = find_map_file(name, std::span(&dir, 1));
        if (!file) continue;
        auto map = load_map_file(*file);
        if (map && protocol::map_hash(*map) == hash) return Found{std::move(*map), *file};
    }
    return std::nullopt;
}

Status MapLibrary::store(std::uint64_t hash, std::span<const std::uint8_t> bytes) const {
    if (cache_dir_.empty()) return {};
    std::error_code ec;
    std::filesystem::create_directories(cache_dir_, ec);
    if (ec) return fail(cache_dir_.string() + ": " + ec.message());
    const std::filesystem::path file = cached_file(hash);
    const std::filesystem::path tmp = file.string() + "." + std::to_string(::getpid()) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            std::filesystem::remove(tmp, ec);
            return fail(tmp.string() + ": cannot write");
        }
    }
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return fail(file.string() + ": " + ec.message());
    }
    return {};
}

}  // namespace carom::maps
