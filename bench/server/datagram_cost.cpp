#include "server/datagram_cost.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "json_line.hpp"
#include "udp_host.hpp"

namespace carom::bench {

DatagramCost measure_datagram_cost(const std::vector<std::uint16_t>& sizes) {
    using Clock = std::chrono::steady_clock;
    asio::io_context io;
    // A sink that never reads: the kernel drops what overflows its buffer.
    asio::ip::udp::socket sink(io, {asio::ip::make_address("127.0.0.1"), 0});
    const std::uint16_t sink_port = sink.local_endpoint().port();
    server::UdpTransport transport(io, "127.0.0.1", 0);
    server::Endpoint to;
    to.address[10] = to.address[11] = 0xFF;
    to.address[12] = 127;
    to.address[15] = 1;
    to.port = sink_port;

    const int raw = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(sink_port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::vector<std::uint8_t> payload(2048, 0x5A);

    constexpr std::size_t kDatagrams = 100000;
    DatagramCost best{1e18, 1e18};
    for (int round = 0; round < 3; ++round) {
        auto t0 = Clock::now();
        for (std::size_t i = 0; i < kDatagrams; ++i)
            transport.send(to, std::span(payload.data(), sizes[i % sizes.size()]));
        transport.flush();
        const double transport_ns =
            std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kDatagrams;
        t0 = Clock::now();
        for (std::size_t i = 0; i < kDatagrams; ++i)
            ::sendto(raw, payload.data(), sizes[i % sizes.size()], 0,
                     reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
        const double sendto_ns =
            std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kDatagrams;
        best.transport_ns = std::min(best.transport_ns, transport_ns);
        best.sendto_ns = std::min(best.sendto_ns, sendto_ns);
    }
    ::close(raw);
    return best;
}

void print_datagram_cost(const DatagramCost& cost, bool json) {
    if (json) {
        print_json_line({
            {"bench", "server_datagram_cost"},
            {"transport_ns", rounded(cost.transport_ns, 1)},
            {"sendto_ns", rounded(cost.sendto_ns, 1)},
            {"ratio", rounded(cost.transport_ns / cost.sendto_ns, 3)},
        });
        return;
    }
    fmt::print(
        "\nSending an update-sized datagram (sizes of the delta run), best of 3 x 100000:\n");
    fmt::print("  UdpTransport::send {:.0f} ns, bare sendto {:.0f} ns, ratio {:.3f}\n",
               cost.transport_ns, cost.sendto_ns, cost.transport_ns / cost.sendto_ns);
}

}  // namespace carom::bench
