#include "carom/physics/state_hasher.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace carom::physics {

std::uint64_t StateHasher::digest() const {
    return XXH3_64bits(bytes_.data(), bytes_.size());
}

}  // namespace carom::physics
