#include "carom/physics/state_hasher.hpp"

#include <new>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace carom::physics {
namespace {

XXH3_state_t* stream(std::array<std::byte, 640>& storage) {
    static_assert(sizeof(XXH3_state_t) <= 640 && alignof(XXH3_state_t) <= 64);
    return std::launder(reinterpret_cast<XXH3_state_t*>(storage.data()));
}

}  // namespace

StateHasher::StateHasher() {
    XXH3_state_t* s = new (state_.data()) XXH3_state_t;
    XXH3_INITSTATE(s);
    XXH3_64bits_reset(s);
}

void StateHasher::flush() {
    XXH3_64bits_update(stream(state_), buffer_.data(), used_);
    used_ = 0;
}

std::uint64_t StateHasher::digest() {
    flush();
    return XXH3_64bits_digest(stream(state_));
}

}  // namespace carom::physics
