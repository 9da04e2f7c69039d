#pragma once
// Datagrams a server must refuse: random bytes, real packets with a wrong
// file identifier, real packets cut short, the right identifier over random
// tables, and well-formed input from an address that never connected.
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace carom::loadgen {

enum class JunkKind : std::uint8_t {
    random_bytes = 0,
    wrong_identifier,
    truncated,
    random_tables,
    unknown_sender,
    count_
};
std::string_view to_string(JunkKind kind);

// Junk datagram number `index` (kinds take turns); never longer than 1400 bytes.
std::vector<std::uint8_t> make_junk(std::mt19937_64& rng, std::uint64_t index);
JunkKind junk_kind(std::uint64_t index);

}  // namespace carom::loadgen
