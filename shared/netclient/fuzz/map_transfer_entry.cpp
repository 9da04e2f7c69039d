// Fuzz entry for the map transfer: the input is a map's binary as a server
// would send it. A Connection accepted with the input's hash and size fetches
// it in chunks that come out of order, twice, and among chunks it must
// refuse (another map's, past the end, of the wrong size); it must end
// holding the map exactly when the map decoder takes the bytes, and refuse
// the map otherwise, with a reason.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "carom/client/connection.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/map_transfer.hpp"
#include "entries.hpp"
#include "server_end.hpp"

namespace carom::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes packet(net::Body type, flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<void> body,
             std::uint32_t id) {
    const auto bytes = protocol::finish_packet(b, id, type, body);
    return {bytes.begin(), bytes.end()};
}

Bytes chunk(std::uint64_t hash, std::uint32_t index, std::span<const std::uint8_t> data) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateMapChunk(b, hash, index, b.CreateVector(data.data(), data.size()));
    return packet(net::Body::MapChunk, b, body.Union(), kFuzzClientId);
}

}  // namespace

int map_transfer(std::span<const std::uint8_t> input) {
    // Maps this large take the other fuzz targets' time for no new path.
    if (input.empty() || input.size() > 64 * protocol::kMapChunkBytes) return 0;
    const std::uint64_t hash = protocol::map_bytes_hash(input);
    client::ConnectionConfig config;
    ServerEnd server;
    client::Connection connection(config, server.sender());
    connection.connect(0);
    {
        connection.on_datagram(server.challenge(kFuzzCookie), 0);
        if (!server.agree()) return 0;
        flatbuffers::FlatBufferBuilder b;
        const auto accepted =
            net::CreateAcceptedDirect(b, kFuzzClientId, 0, 0, 0, 60, 60, "fuzz", hash, 1, 8, 2, 1,
                                      static_cast<std::uint32_t>(input.size()));
        connection.on_datagram(
            server.sealed(packet(net::Body::Accepted, b, accepted.Union(), kFuzzClientId)), 0);
    }
    connection.fetch_map(0);
    const std::uint32_t n = protocol::chunk_count(input.size());
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0U);
    std::mt19937_64 rng(hash);
    std::shuffle(order.begin(), order.end(), rng);
    std::uint64_t now_ms = 1;
    // Chunks to refuse first: each changes nothing.
    connection.on_datagram(server.sealed(chunk(hash ^ 1, 0, input.first(1))), now_ms);
    connection.on_datagram(server.sealed(chunk(hash, n, input.first(1))), now_ms);
    if (input.size() > 1)
        connection.on_datagram(server.sealed(chunk(hash, 0, input.first(0))), now_ms);
    for (const std::uint32_t i : order) {
        const std::size_t at = std::size_t{i} * protocol::kMapChunkBytes;
        const auto data = input.subspan(at, std::min(protocol::kMapChunkBytes, input.size() - at));
        connection.on_datagram(server.sealed(chunk(hash, i, data)), now_ms);
        if (rng() % 4 == 0)
            connection.on_datagram(server.sealed(chunk(hash, i, data)), now_ms);  // a duplicate
        connection.update(now_ms += 16);
    }
    const bool decodes = protocol::map_from_binary(Bytes(input.begin(), input.end())).ok();
    const bool held = connection.replica() != nullptr;
    const bool refused = connection.close_reason() == client::CloseReason::bad_map &&
                         !connection.close_detail().empty();
    // The transfer adds nothing and takes nothing away from what a file gets.
    if (held != decodes || held == refused) std::abort();
    return 0;
}

}  // namespace carom::fuzz
