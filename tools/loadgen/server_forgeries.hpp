#pragma once
// What an off-path attacker sends a playing client as if from its server:
// it can forge the server's address and read the server's tick from a
// session of its own, but it cannot know the victim's session keys.
#include <cstdint>
#include <random>
#include <vector>

namespace carom::loadgen {

// A ServerUpdate whose 16-bit tick is `tick`'s, with a random stream and
// state check, in the clear or sealed with random keys.
std::vector<std::uint8_t> forged_update(std::mt19937_64& rng, std::uint64_t tick);
// A session Packet from the server (Disconnect, KeepAlive, FullState of
// `tick`, MapChunk or a repeated Accepted) with a random client id, in the
// clear or sealed with random keys.
std::vector<std::uint8_t> forged_server_packet(std::mt19937_64& rng, std::uint64_t tick);

}  // namespace carom::loadgen
