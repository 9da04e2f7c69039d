#include "server/capacity.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "json_line.hpp"
#include "server/bare_loop.hpp"
#include "server/harness.hpp"
#include "server/loopback.hpp"
#include "udp_host.hpp"

namespace carom::bench {
namespace {

using Clock = std::chrono::steady_clock;

// CPU time this thread has used, in ms.
double thread_cpu_ms() {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace

Capacity measure_capacity(std::uint32_t n, std::uint32_t ticks) {
    asio::io_context io;
    server::UdpTransport transport(io, "127.0.0.1", 0);
    server::ServerConfig config = bench_config(n);
    server::DiskThread disk;  // as carom-server runs its file work
    server::Server server(config, transport, disk, server::CookieJar{}, "bench");
    transport.start_receiving(
        [&server](const server::Endpoint& from, std::span<const std::uint8_t> bytes) {
            server.receive(from, bytes);
        });
    // The clients' sockets belong to an io_context that never runs: Asio
    // registers every socket with its context's epoll, and in the server's
    // each poll would walk every client socket an update had just reached
    // (0.2 ms a tick at 512 clients), a cost a real server does not have.
    asio::io_context client_io;
    BareLoop bare(server::UdpTransport::kSocketBufferBytes);
    const asio::ip::udp::endpoint server_at = transport.local_endpoint();
    const asio::ip::udp::endpoint bare_at(asio::ip::make_address("127.0.0.1"), bare.port());
    struct SocketClient {
        std::unique_ptr<asio::ip::udp::socket> socket;
        InProcessClient state;
        std::uint64_t newest = 0;
        sockaddr_in address{};            // the socket's own address, where replies go
        std::vector<std::uint8_t> input;  // this tick's ClientUpdate, sent to both
    };
    std::vector<SocketClient> clients;
    flatbuffers::FlatBufferBuilder b;
    for (std::uint32_t i = 0; i < n; ++i) {
        SocketClient c;
        c.socket = std::make_unique<asio::ip::udp::socket>(client_io);
        const InProcessClient accepted = connect_socket(io, *c.socket, server_at, i);
        c.state = accepted;
        const asio::ip::udp::endpoint local = c.socket->local_endpoint();
        std::memcpy(&c.address, local.data(), sizeof c.address);
        clients.push_back(std::move(c));
    }

    std::vector<double> times, cpu_times, without_receive, bare_cpu_times;
    std::uint64_t missing = 0;
    std::uint64_t packets_in_before = 0;
    std::uint64_t bare_read = 0;
    std::array<double, 3> phase_ms{};  // receive, Server::tick, flush
    // What the server sent this tick, recorded as its clients received it
    // (each datagram's size and socket): the bare loop, timed right after,
    // sends the same sizes to the same sockets, so it also runs at 60 Hz.
    std::vector<BareLoop::Reply> replies;
    // Each iteration times a server tick and then the bare loop on the same
    // datagrams, so whatever else the machine does falls on both alike.
    for (std::uint32_t t = 0; t < 60 + ticks; ++t) {
        const bool timed = t >= 60;
        if (t == 60) packets_in_before = server.stats().packets_in;
        for (auto& c : clients) {
            const auto input = next_input(b, c.state, config.input_redundancy, c.newest);
            c.input.assign(input.begin(), input.end());
            c.socket->send(asio::buffer(c.input));
        }
        const double cpu0 = thread_cpu_ms();
        const auto t0 = Clock::now();
        poll(io);
        const auto t1 = Clock::now();
        server.tick();
        const auto t2 = Clock::now();
        transport.flush();
        const auto t3 = Clock::now();
        const double cpu3 = thread_cpu_ms();
        if (timed) {
            times.push_back(std::chrono::duration<double, std::milli>(t3 - t0).count());
            cpu_times.push_back(cpu3 - cpu0);
            without_receive.push_back(std::chrono::duration<double, std::milli>(t3 - t1).count());
            phase_ms[0] += std::chrono::duration<double, std::milli>(t1 - t0).count();
            phase_ms[1] += std::chrono::duration<double, std::milli>(t2 - t1).count();
            phase_ms[2] += std::chrono::duration<double, std::milli>(t3 - t2).count();
        }

        replies.clear();
        for (auto& c : clients) {
            drain(*c.socket, [&](std::span<const std::uint8_t> d) {
                replies.push_back({c.address, static_cast<std::uint16_t>(d.size())});
                protocol::DatagramBuffer buffer{};
                if (const auto tick = update_tick(opened(d, c.state.seal.get(), buffer), c.newest))
                    c.newest = std::max(c.newest, *tick);
            });
            if (t >= 61 && c.newest + 2 < server.current_tick()) ++missing;
            // The same socket, now talking to the bare loop (connected, as to the server).
            c.socket->connect(bare_at);
            c.socket->send(asio::buffer(c.input));
        }
        const double bare0 = thread_cpu_ms();
        const std::size_t read = bare.tick(replies);
        const double bare1 = thread_cpu_ms();
        if (timed) {
            bare_cpu_times.push_back(bare1 - bare0);
            bare_read += read;
        }
        for (auto& c : clients) {
            drain(*c.socket, [](std::span<const std::uint8_t>) {});
            c.socket->connect(server_at);
        }
    }
    const std::uint64_t received = server.stats().packets_in - packets_in_before;
    server.shutdown();
    const auto mean = [](const std::vector<double>& v) {
        double sum = 0;
        for (double x : v)
            sum += x;
        return sum / static_cast<double>(v.size());
    };
    Capacity out;
    out.clients = n;
    out.received = static_cast<double>(received) / (static_cast<double>(n) * ticks);
    out.receive_ms = phase_ms[0] / ticks;
    out.logic_ms = phase_ms[1] / ticks;
    out.send_ms = phase_ms[2] / ticks;
    out.p50_ms = percentile(times, 0.5);
    out.p99_ms = percentile(times, 0.99);
    out.max_ms = *std::max_element(times.begin(), times.end());
    out.cpu_p50_ms = percentile(cpu_times, 0.5);
    out.cpu_p99_ms = percentile(cpu_times, 0.99);
    out.without_receive_p99_ms = percentile(without_receive, 0.99);
    out.cpu_mean_ms = mean(cpu_times);
    out.load = out.cpu_mean_ms / kTickMs;
    out.updates_missing = missing;
    out.bare_cpu_mean_ms = mean(bare_cpu_times);
    out.bare_received = static_cast<double>(bare_read) / (static_cast<double>(n) * ticks);
    return out;
}

double Capacity::cpu_us_per_client_tick() const {
    return 1e3 * cpu_mean_ms / clients;
}

double Capacity::bare_cpu_us_per_client_tick() const {
    return 1e3 * bare_cpu_mean_ms / clients;
}

double Capacity::vs_bare() const {
    return cpu_mean_ms / bare_cpu_mean_ms;
}

double Capacity::rooms_per_core() const {
    const double rooms = (clients + 7) / 8;
    return kTickMs * rooms / cpu_mean_ms;
}

void print_capacity_heading(std::uint32_t ticks) {
    fmt::print(
        "Capacity: loopback UDP, rooms of 8 (arena), every client sends input each "
        "tick, {} ticks timed, one thread\n",
        ticks);
    fmt::print(
        "  tick = receive the inputs + Server::tick + flush, wall time (the target: p99 < 2 "
        "ms);\n"
        "  cpu = the same in this thread's CPU time; no-recv = Server::tick + flush only, as\n"
        "  carom-server's stats line times a tick (it reads datagrams between ticks);\n"
        "  us/cl = mean cpu per client per tick; bare = the same for a recvmmsg/sendmmsg loop\n"
        "  given the same datagrams in alternate ticks; vs_bare = us/cl / bare; rooms/core =\n"
        "  rooms of 8 one core holds at 60 Hz at this cpu\n");
    fmt::print(
        "  {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8} {:>6} {:>6} {:>7} {:>10}   "
        "{}\n",
        "clients", "tick p50", "tick p99", "max", "cpu p50", "cpu p99", "no-recv", "load", "behind",
        "received", "us/cl", "bare", "vs_bare", "rooms/core", "mean ms: receive / tick / flush");
}

void print_capacity(const Capacity& c, bool json) {
    if (json) {
        print_json_line({
            {"bench", "server_capacity"},
            {"clients", c.clients},
            {"rooms", (c.clients + 7) / 8},
            {"tick_ms_p50", rounded(c.p50_ms, 4)},
            {"tick_ms_p99", rounded(c.p99_ms, 4)},
            {"tick_ms_max", rounded(c.max_ms, 4)},
            {"cpu_ms_p50", rounded(c.cpu_p50_ms, 4)},
            {"cpu_ms_p99", rounded(c.cpu_p99_ms, 4)},
            {"tick_ms_p99_without_receive", rounded(c.without_receive_p99_ms, 4)},
            {"cpu", rounded(c.load, 4)},
            {"client_ticks_behind", c.updates_missing},
            {"inputs_received", rounded(c.received, 4)},
            {"receive_ms_mean", rounded(c.receive_ms, 4)},
            {"server_tick_ms_mean", rounded(c.logic_ms, 4)},
            {"flush_ms_mean", rounded(c.send_ms, 4)},
            {"cpu_us_per_client_tick", rounded(c.cpu_us_per_client_tick(), 3)},
            {"bare_cpu_us_per_client_tick", rounded(c.bare_cpu_us_per_client_tick(), 3)},
            {"vs_bare", rounded(c.vs_bare(), 3)},
            {"rooms_per_core", rounded(c.rooms_per_core(), 1)},
            {"bare_inputs_received", rounded(c.bare_received, 4)},
        });
        return;
    }
    fmt::print(
        "  {:>7} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>5.1f}% {:>6} "
        "{:>7.1f}% {:>6.2f} {:>6.2f} {:>7.2f} {:>10.0f}   {:.3f} / {:.3f} / {:.3f}\n",
        c.clients, c.p50_ms, c.p99_ms, c.max_ms, c.cpu_p50_ms, c.cpu_p99_ms,
        c.without_receive_p99_ms, 100.0 * c.load, c.updates_missing, 100.0 * c.received,
        c.cpu_us_per_client_tick(), c.bare_cpu_us_per_client_tick(), c.vs_bare(),
        c.rooms_per_core(), c.receive_ms, c.logic_ms, c.send_ms);
}

}  // namespace carom::bench
