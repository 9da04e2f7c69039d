#include "carom/replay/file_hash.hpp"

#include <fstream>
#include <string>
#include <vector>

#include "carom/replay/reader.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace carom::replay {

FileHash file_hash(std::span<const std::uint8_t> bytes) {
    XXH128_canonical_t canonical;
    XXH128_canonicalFromHash(&canonical, XXH3_128bits(bytes.data(), bytes.size()));
    FileHash out{};
    static_assert(sizeof canonical.digest == std::tuple_size_v<FileHash>);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = canonical.digest[i];
    return out;
}

Result<FileHash> file_hash(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail("cannot open " + path.string());
    std::vector<std::uint8_t> bytes;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        bytes.insert(bytes.end(), buffer, buffer + in.gcount());
        if (bytes.size() > kMaxReplayBytes)
            return fail(path.string() + ": larger than a replay may be");
    }
    if (in.bad()) return fail("read error on " + path.string());
    return file_hash(std::span<const std::uint8_t>(bytes));
}

std::string to_hex(const FileHash& hash) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (const std::uint8_t byte : hash) {
        out.push_back(kDigits[byte >> 4]);
        out.push_back(kDigits[byte & 0xF]);
    }
    return out;
}

}  // namespace carom::replay
