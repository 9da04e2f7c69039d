#pragma once
// What the bits of protocol 4's delta snapshots pay for: the stream read
// back field by field (schemas/PROTOCOL.md, "Delta stream") and its bits
// attributed, by the baseline's age.
#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace carom::bench {

struct DeltaBits {
    static constexpr std::size_t kAges = 6;  // n = 1, 2-3, 4-7, 8-15, 16-31, 32+
    struct Bucket {
        std::uint64_t snapshots = 0;
        std::uint64_t datagram_bytes = 0;  // whole datagrams
        std::uint64_t stream_bytes = 0;    // the delta vector's bytes
        std::uint64_t header_bits = 0;     // frame header flag and fields
        std::uint64_t flag_bits = 0;       // one per disk
        std::uint64_t puck_velocity_bits = 0, puck_position_bits = 0;
        std::uint64_t player_velocity_bits = 0, player_position_bits = 0;
        std::uint64_t padding_bits = 0;
        std::uint64_t disks_changed = 0, disks = 0;
    };
    std::array<Bucket, kAges> by_age{};

    // One delta snapshot: its datagram size, age n, stream and puck count.
    void add(std::size_t datagram_bytes, std::uint64_t age, std::span<const std::uint8_t> stream,
             std::uint32_t pucks, std::uint32_t disks);
    static std::string age_label(std::size_t bucket);
};

}  // namespace carom::bench
