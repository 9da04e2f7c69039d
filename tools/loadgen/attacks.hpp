#pragma once
// The hostile datagrams carom-flood sends, by kind: what an off-path attacker
// can make without a session. Each maker returns one datagram; kinds take
// turns in the flood so that every one is measured.
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace carom::loadgen {

enum class Attack : std::uint8_t {
    junk = 0,        // junk.hpp: random bytes, wrong identifiers, cut packets, random tables
    every_size,      // random bytes of every size from 0 to 65507 (the largest UDP payload)
    bit_flips,       // valid packets with one to three bits flipped
    forged_cookies,  // ConnectResponses with random cookies
    wrong_versions,  // valid packets of another protocol version
    wrong_ids,       // session packets with random client ids, clear or randomly sealed
    many_ports,      // padded ConnectRequests, each from another source port
    forged_source,   // inputs and disconnects as if from a victim's address (raw socket, root)
    status_queries,  // padded StatusRequests (the rooms listed), far past the address's rate
    // To the victims, as if from the server (raw socket, root), at the
    // server's tick (read from a spectator session of the flood's own):
    server_updates,  // ServerUpdates with random streams and MACs, some far ahead
    server_packets,  // Disconnects, KeepAlives, FullStates, MapChunks, Accepteds, random keys
    count_
};
std::string_view to_string(Attack attack);
// "junk,every-size,..." names; false for an unknown one.
bool parse_attack(std::string_view name, Attack& out);

// A datagram of `attack` (every_size excepted: the flood sends prefixes of one
// random 64 KB buffer; the server_* kinds are made at the server's tick, by
// server_forgeries.hpp).
std::vector<std::uint8_t> make_attack(Attack attack, std::mt19937_64& rng, std::uint64_t index);

}  // namespace carom::loadgen
