#pragma once
// The byte layout of a replay file (schemas/PROTOCOL.md):
//   preamble: "CAROMRPL", u32 format version (little-endian)
//   chunks:   u32 payload size, u64 XXH3-64 of the payload, payload
// In format 1 a payload is a FlatBuffers `Chunk`; from format 2 on its first
// byte says how the rest is encoded (ChunkEncoding).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "carom/result.hpp"

namespace carom::replay::detail {

inline constexpr std::array<std::uint8_t, 8> kMagic{'C', 'A', 'R', 'O', 'M', 'R', 'P', 'L'};
inline constexpr std::size_t kPreambleSize = 12;
inline constexpr std::size_t kChunkHeaderSize = 12;
// Far above any real chunk (a keyframe of 32 players is a few KB); a larger
// size field is damage, refused before any allocation.
inline constexpr std::uint32_t kMaxChunkSize = 16u << 20;

std::uint64_t checksum(std::span<const std::uint8_t> payload);

// Format 2: the first byte of a chunk's payload.
enum class ChunkEncoding : std::uint8_t {
    flatbuffers = 0,  // a FlatBuffers `Chunk` (the footer)
    zstd = 1,         // one zstd frame holding a FlatBuffers `Chunk` (header, keyframes)
    packed_ticks = 2  // a packed tick batch (chunk_codec.hpp)
};

// One zstd frame of `bytes`, its size recorded in the frame.
std::vector<std::uint8_t> compress(std::span<const std::uint8_t> bytes);
// The content of one zstd frame that records its size, at most `max_bytes`
// (checked before anything is allocated for it).
Result<std::vector<std::uint8_t>> decompress(std::span<const std::uint8_t> frame,
                                             std::size_t max_bytes);

inline void put_u32(std::uint8_t* out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void put_u64(std::uint8_t* out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline std::uint32_t get_u32(const std::uint8_t* in) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | in[i];
    return v;
}
inline std::uint64_t get_u64(const std::uint8_t* in) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | in[i];
    return v;
}

}  // namespace carom::replay::detail
