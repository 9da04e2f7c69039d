#include "server/bandwidth.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "json_line.hpp"
#include "server/harness.hpp"

namespace carom::bench {

Bandwidth measure_bandwidth(bool delta, std::uint32_t ticks, std::vector<std::uint16_t>* sizes) {
    CountingTransport link;
    server::ServerConfig config = bench_config(8);
    config.delta_updates = delta;
    server::DiskThread disk;  // as carom-server runs its file work
    server::Server server(config, link, disk, server::CookieJar{}, "bench");
    auto clients = connect_clients(server, link, 8);
    flatbuffers::FlatBufferBuilder b;
    const auto run = [&](std::uint32_t n) {
        for (std::uint32_t t = 0; t < n; ++t) {
            for (auto& c : clients)
                server.receive(c.at, next_input(b, c, config.input_redundancy,
                                                link.by_client[c.at].newest_update));
            server.tick();
        }
    };
    run(60);
    std::uint64_t bytes0 = 0, datagrams0 = 0;
    for (const auto& c : clients) {
        bytes0 += link.by_client[c.at].bytes;
        datagrams0 += link.by_client[c.at].datagrams;
    }
    link.sizes.clear();
    run(ticks);
    std::uint64_t bytes = 0, datagrams = 0;
    for (const auto& c : clients) {
        bytes += link.by_client[c.at].bytes;
        datagrams += link.by_client[c.at].datagrams;
    }
    const double seconds = ticks / 60.0;
    Bandwidth out;
    out.bytes_per_s = static_cast<double>(bytes - bytes0) / 8.0 / seconds;
    out.datagrams_per_s = static_cast<double>(datagrams - datagrams0) / 8.0 / seconds;
    out.mean_update_bytes = static_cast<double>(bytes - bytes0) /
                            static_cast<double>(std::max<std::uint64_t>(1, datagrams - datagrams0));
    if (sizes != nullptr) *sizes = link.sizes;
    server.shutdown();
    return out;
}

void print_bandwidth(const Bandwidth& delta, const Bandwidth& full, bool json) {
    const double ratio = delta.bytes_per_s / full.bytes_per_s;
    if (json) {
        print_json_line({
            {"bench", "server_bandwidth"},
            {"map", "arena"},
            {"clients", 8},
            {"delta_bytes_per_s", rounded(delta.bytes_per_s, 1)},
            {"full_bytes_per_s", rounded(full.bytes_per_s, 1)},
            {"delta_over_full", rounded(ratio, 3)},
            {"delta_mean_update_bytes", rounded(delta.mean_update_bytes, 1)},
            {"full_mean_update_bytes", rounded(full.mean_update_bytes, 1)},
        });
        return;
    }
    fmt::print(
        "Bandwidth per client, 4 v 4 arena, 8 in-process clients acknowledging every "
        "update at once, 60 s of play, 60 Hz "
        "(payload bytes; UDP/IP adds 28 B a datagram)\n");
    fmt::print("  updates:     {:8.1f} B/s ({:.1f} B a datagram)\n", delta.bytes_per_s,
               delta.mean_update_bytes);
    fmt::print("  full states: {:8.1f} B/s ({:.1f} B a datagram)\n", full.bytes_per_s,
               full.mean_update_bytes);
    fmt::print("  updates / full states = {:.3f}\n\n", ratio);
}

}  // namespace carom::bench
