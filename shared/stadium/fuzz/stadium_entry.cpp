// Fuzz entry for the HaxBall stadium importer: JSON5 text to a carom map.
#include <string_view>

#include "carom/stadium/hbs.hpp"
#include "entries.hpp"

namespace carom::fuzz {

int stadium_hbs(std::span<const std::uint8_t> input) {
    const std::string_view text(reinterpret_cast<const char*>(input.data()), input.size());
    (void)stadium::import_stadium(text, "fuzz.hbs");
    return 0;
}

}  // namespace carom::fuzz
