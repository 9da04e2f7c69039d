#pragma once
// What the server benchmarks share: the map, client inputs that keep disks
// moving, a Transport that only counts, and percentiles.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "carom/protocol/seal.hpp"

#include "server.hpp"

namespace carom::bench {

// The tick period at 60 Hz.
constexpr double kTickMs = 1000.0 / 60.0;

// The value at fraction `p` (0..1) of `v` sorted, the nearest rank; 0 when `v` is empty.
double percentile(std::vector<double> v, double p);

// The 4 v 4 map, from the working directory or the source tree.
std::filesystem::path arena_map();
server::ServerConfig bench_config(std::uint32_t clients);

// A client's input for its sequence number: turns every half second, kicks now and then.
std::uint8_t scripted_input(std::uint32_t client, std::uint32_t sequence);

class CountingTransport final : public server::Transport {
  public:
    void send(const server::Endpoint& to, std::span<const std::uint8_t> datagram) override;
    struct Traffic {
        std::uint64_t datagrams = 0;
        std::uint64_t bytes = 0;
        std::uint64_t newest_update = 0;  // server tick of the newest update or state sent to it
    };
    std::map<server::Endpoint, Traffic> by_client;
    // The newest datagram to each, opened with its seal when there is one.
    std::map<server::Endpoint, std::vector<std::uint8_t>> last;
    // Each client's end of its session, where the bench keeps one.
    std::map<server::Endpoint, std::shared_ptr<protocol::SessionSeal>> seals;
    std::vector<std::uint16_t> sizes;  // every update's size, for the datagram cost bench
};

// A simulated player talking to the server in process.
struct InProcessClient {
    server::Endpoint at;
    std::uint32_t index = 0;
    std::uint32_t id = 0;
    // The handshake's key pair and nonce, and the session's keys once a Challenge came.
    protocol::KeyPair keys = protocol::make_key_pair();
    std::uint64_t nonce = protocol::random_u64();
    std::shared_ptr<protocol::SessionSeal> seal;
    std::uint32_t sequence = 0;
};

// The datagram inside `datagram`, opened with `seal` into `buffer` when it
// is sealed (empty when it does not open); else `datagram` itself.
std::span<const std::uint8_t> opened(std::span<const std::uint8_t> datagram,
                                     protocol::SessionSeal* seal, protocol::DatagramBuffer& buffer);

// Handshake for clients 127.0.0.x:port; throws if one is not accepted.
std::vector<InProcessClient> connect_clients(server::Server& server, CountingTransport& link,
                                             std::uint32_t count);
// The server tick of an update datagram (a ServerUpdate, its 16 bits read
// back near `reference`, or a FullState), if it is one.
std::optional<std::uint64_t> update_tick(std::span<const std::uint8_t> datagram,
                                         std::uint64_t reference);

// The client's next ClientUpdate: its newest K inputs and its acknowledgement
// (this client acknowledges what it received without stepping a copy of the
// match: for the server, the same work as a real client's).
std::span<const std::uint8_t> next_input(flatbuffers::FlatBufferBuilder& builder,
                                         InProcessClient& client, std::uint32_t redundancy,
                                         std::uint64_t ack);
// A padded ConnectRequest, and the ConnectResponse to `challenge` (the
// client's keys agreed from it).
std::span<const std::uint8_t> connect_request(flatbuffers::FlatBufferBuilder& builder,
                                              const InProcessClient& client);
std::span<const std::uint8_t> connect_response(flatbuffers::FlatBufferBuilder& builder,
                                               InProcessClient& client,
                                               const net::Challenge& challenge);

}  // namespace carom::bench
