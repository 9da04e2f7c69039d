#pragma once
// The byte layout of a replay file (schemas/PROTOCOL.md):
//   preamble: "CAROMRPL", u32 format version (little-endian)
//   chunks:   u32 payload size, u64 XXH3-64 of the payload, payload (a `Chunk` buffer)
#include <array>
#include <cstdint>
#include <span>

namespace carom::replay::detail {

inline constexpr std::array<std::uint8_t, 8> kMagic{'C', 'A', 'R', 'O', 'M', 'R', 'P', 'L'};
inline constexpr std::size_t kPreambleSize = 12;
inline constexpr std::size_t kChunkHeaderSize = 12;
// Far above any real chunk (a keyframe of 32 players is a few KB); a larger
// size field is damage, refused before any allocation.
inline constexpr std::uint32_t kMaxChunkSize = 16u << 20;

std::uint64_t checksum(std::span<const std::uint8_t> payload);

inline void put_u32(std::uint8_t* out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void put_u64(std::uint8_t* out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline std::uint32_t get_u32(const std::uint8_t* in) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | in[i];
    return v;
}
inline std::uint64_t get_u64(const std::uint8_t* in) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | in[i];
    return v;
}

}  // namespace carom::replay::detail
