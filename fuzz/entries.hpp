#pragma once
// The fuzzed entry points, one per target. Each takes any bytes, must never
// crash, leak or hang, and returns 0. libFuzzer calls them (fuzz_main.cpp);
// the normal build's fuzz_inputs_tests feeds them every committed corpus and
// regression file.
//
// The datagram targets read their input as records, so one input can hold a
// whole exchange: [flags: 1 byte][length: 2 bytes, little-endian][datagram],
// repeated; a record cut short takes what is left. Flags: bit 0, a tick (or
// 16 ms) passes after the datagram; bit 1 (server), it comes from a stranger's
// address instead of the session's.
//
// Session packets in the inputs carry a placeholder id: the harness swaps
// kFuzzClientId for the real session's (server), or the session it accepted
// is given it (client). The datagrams are in the clear: the harness seals
// each with the session's keys (bit 2 of the flags: sent as it is), so
// mutated packets still pass the session checks and reach the deep paths.
#include <array>
#include <cstdint>
#include <functional>
#include <span>

namespace carom::fuzz {

inline constexpr std::uint32_t kFuzzClientId = 0x5A5A5546;  // "FUZZ"
inline constexpr std::uint64_t kFuzzCookie = 0x454B4F4F43;  // client target's Challenge

int server_datagrams(std::span<const std::uint8_t> input);
int client_updates(std::span<const std::uint8_t> input);
// The same, and how many updates the client's copy of the match took: the
// corpus must reach past the seal.
std::uint64_t client_updates_taken(std::span<const std::uint8_t> input);
int replay_reader(std::span<const std::uint8_t> input);
int map_json(std::span<const std::uint8_t> input);
int map_binary(std::span<const std::uint8_t> input);
// A map's binary fetched over the wire by a client (map_binary's seeds).
int map_transfer(std::span<const std::uint8_t> input);
int stadium_hbs(std::span<const std::uint8_t> input);
// Connect tokens, read and opened with kFuzzTokenKey at kFuzzTokenNow.
int connect_token(std::span<const std::uint8_t> input);
inline constexpr std::array<std::uint8_t, 32> kFuzzTokenKey{
    1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
inline constexpr std::uint64_t kFuzzTokenNow = 1'800'000'000;

struct Record {
    std::uint8_t flags = 0;
    std::span<const std::uint8_t> bytes;
};
inline constexpr std::uint8_t kRecordTick = 1;
inline constexpr std::uint8_t kRecordStranger = 2;
inline constexpr std::uint8_t kRecordAsItIs = 4;

// Calls `each` for every record of `input`, in order.
inline void for_each_record(std::span<const std::uint8_t> input,
                            const std::function<void(const Record&)>& each) {
    while (!input.empty()) {
        Record r;
        r.flags = input[0];
        std::size_t length = input.size() - 1;
        std::size_t header = 1;
        if (input.size() >= 3) {
            length = static_cast<std::size_t>(input[1]) | static_cast<std::size_t>(input[2]) << 8;
            header = 3;
        }
        length = std::min(length, input.size() - header);
        r.bytes = input.subspan(header, length);
        each(r);
        input = input.subspan(header + length);
    }
}

}  // namespace carom::fuzz
