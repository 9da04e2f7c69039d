#include "file_format.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace carom::replay::detail {

std::uint64_t checksum(std::span<const std::uint8_t> payload) {
    return XXH3_64bits(payload.data(), payload.size());
}

}  // namespace carom::replay::detail
