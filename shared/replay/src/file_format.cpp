#include "file_format.hpp"

#include <zstd.h>

#include <stdexcept>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace carom::replay::detail {
namespace {

// Keyframes and headers of the shipped maps are a few KB, written a few
// times a minute: the strongest level costs well under a millisecond each.
// A map of a thousand walls makes them a hundred KB, where that level takes
// tens of milliseconds on the tick thread (and 64 rooms start at once):
// those get a fast level.
constexpr std::size_t kStrongLevelBytes = 16 * 1024;
constexpr int kStrongLevel = 19;
constexpr int kFastLevel = 3;

}  // namespace

std::uint64_t checksum(std::span<const std::uint8_t> payload) {
    return XXH3_64bits(payload.data(), payload.size());
}

std::vector<std::uint8_t> compress(std::span<const std::uint8_t> bytes) {
    std::vector<std::uint8_t> out(ZSTD_compressBound(bytes.size()));
    const std::size_t size =
        ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(),
                      bytes.size() <= kStrongLevelBytes ? kStrongLevel : kFastLevel);
    // Only a bad argument fails here: the buffer is as large as the bound.
    if (ZSTD_isError(size) != 0)
        throw std::logic_error(std::string("zstd: ") + ZSTD_getErrorName(size));
    out.resize(size);
    return out;
}

Result<std::vector<std::uint8_t>> decompress(std::span<const std::uint8_t> frame,
                                             std::size_t max_bytes) {
    const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (size == ZSTD_CONTENTSIZE_ERROR) return fail("not a zstd frame");
    if (size == ZSTD_CONTENTSIZE_UNKNOWN) return fail("zstd frame without its size");
    if (size > max_bytes)
        return fail("zstd frame of " + std::to_string(size) + " bytes, at most " +
                    std::to_string(max_bytes));
    std::vector<std::uint8_t> out(static_cast<std::size_t>(size));
    const std::size_t got = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
    if (ZSTD_isError(got) != 0) return fail(std::string("zstd: ") + ZSTD_getErrorName(got));
    if (got != out.size()) return fail("zstd frame shorter than its recorded size");
    return out;
}

}  // namespace carom::replay::detail
