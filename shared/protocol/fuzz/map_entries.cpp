// Fuzz entries for the map loaders: JSON text (the map files) and the
// standalone binary form (what replays embed).
#include <string>

#include "carom/maps/map_file.hpp"
#include "carom/protocol/map_codec.hpp"
#include "entries.hpp"

namespace carom::fuzz {

int map_json(std::span<const std::uint8_t> input) {
    const std::string text(input.begin(), input.end());
    (void)maps::parse_map_json(text, "fuzz.json");
    return 0;
}

int map_binary(std::span<const std::uint8_t> input) {
    // A copy on the heap: aligned as a file read would be.
    const std::vector<std::uint8_t> bytes(input.begin(), input.end());
    auto map = protocol::map_from_binary(bytes);
    // A map that decodes must encode again.
    if (map) (void)protocol::map_to_binary(*map);
    // And the same bytes from a server: the client takes exactly what a file gives.
    return map_transfer(input);
}

}  // namespace carom::fuzz
