#pragma once
// The room's map over the session (schemas/PROTOCOL.md, "Map transfer"): a
// client that lacks the map Accepted names asks for the chunks of its binary
// (MapRequest) and the server sends them (MapChunk), paced. MapDownload is
// the receiving end: which chunks to ask for and when, so that loss,
// duplication and reordering only cost time, and the map once every chunk
// came and the bytes hash to Accepted.map_hash.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "carom/result.hpp"

namespace carom::protocol {

inline constexpr std::size_t kMapChunkBytes = 1024;
// Chunk indices one MapRequest carries at most.
inline constexpr std::size_t kMaxChunksPerRequest = 64;
// The largest map binary sent (the largest map file read, map_file.hpp).
inline constexpr std::size_t kMaxMapBytes = std::size_t{4} << 20;

constexpr std::uint32_t chunk_count(std::size_t map_bytes) {
    return static_cast<std::uint32_t>((map_bytes + kMapChunkBytes - 1) / kMapChunkBytes);
}

// XXH3-64 (seed 0) of a map's binary: what Accepted.map_hash is of the bytes
// the chunks carry.
std::uint64_t map_bytes_hash(std::span<const std::uint8_t> bytes);

class MapDownload {
  public:
    struct Config {
        // Chunks asked for and not yet come, at most (the server queues 256).
        std::size_t window = 128;
        // A chunk not come this long after it was asked for is asked again;
        // the wait then follows the time chunks take to come (twice it).
        std::uint64_t first_retry_ms = 200;
    };
    enum class Took : std::uint8_t { fresh, duplicate, refused };

    // An empty map or one over kMaxMapBytes is refused before anything is allocated.
    static Result<MapDownload> start(std::uint64_t hash, std::uint32_t bytes, Config config);
    static Result<MapDownload> start(std::uint64_t hash, std::uint32_t bytes) {
        return start(hash, bytes, Config{});
    }

    // The chunks to ask for now, at most kMaxChunksPerRequest (empty: none due).
    std::vector<std::uint32_t> due(std::uint64_t now_ms);
    // One MapChunk's index and data: refused when the index is outside the
    // map or the data is not that chunk's size.
    Took add(std::uint32_t index, std::span<const std::uint8_t> data, std::uint64_t now_ms);

    // The requests so far went to a session that is gone: every missing
    // chunk is due again (a transfer resumed after a reconnect).
    void forget_requests() { std::fill(asked_ms_.begin(), asked_ms_.end(), 0); }

    bool complete() const { return held_ == received_.size(); }
    // Once complete: the map's binary, or why not (the bytes do not hash to
    // the hash the server named).
    Result<std::vector<std::uint8_t>> bytes() const;

    std::uint64_t hash() const { return hash_; }
    std::size_t size() const { return data_.size(); }
    std::size_t bytes_held() const;
    std::uint32_t chunks() const { return static_cast<std::uint32_t>(received_.size()); }
    std::uint32_t chunks_held() const { return held_; }
    std::uint64_t retry_ms() const { return retry_ms_; }

  private:
    MapDownload(std::uint64_t hash, std::uint32_t bytes, Config config);

    std::uint64_t hash_;
    Config config_;
    std::vector<std::uint8_t> data_;
    std::vector<bool> received_;
    std::vector<std::uint64_t> asked_ms_;  // per chunk: when last asked for (0: never)
    std::uint32_t held_ = 0;
    std::uint32_t first_missing_ = 0;  // every chunk before it is held
    std::uint64_t retry_ms_;
    double smoothed_ms_ = 0.0;  // the time a chunk takes to come, smoothed (0: none came yet)
};

}  // namespace carom::protocol
