#include "server/command.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "json.hpp"
#include "server/harness.hpp"
#include "server/link.hpp"
#include "udp_host.hpp"

#include <spdlog/spdlog.h>

namespace carom::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kTickMs = 1000.0 / 60.0;

struct ServerOptions {
    std::vector<std::uint32_t> clients{64, 128, 256, 512, 768, 1024};
    std::uint32_t ticks = 600;
    double latency_seconds = 10;
    bool json = false;
    std::vector<std::string> only;  // empty: every part
    double link_seconds = 60;
    std::vector<std::uint64_t> seeds{1, 2, 3};
    std::vector<double> rtts_ms{0, 50, 100, 200};
    std::vector<double> losses_percent{0, 5, 10};
};

// "a" or "a-b": the range of a figure over the seeds.
std::string range(const std::vector<double>& v, const char* format) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const std::string a = fmt::format(fmt::runtime(format), *lo);
    const std::string b = fmt::format(fmt::runtime(format), *hi);
    return a == b ? a : a + "-" + b;
}

void print_delta_bits(const DeltaBits& bits) {
    fmt::print(
        "\n  What the delta bits pay for (one run at 100 ms, 5 %, by the baseline's age n in "
        "ticks;\n  bits per snapshot, means):\n");
    fmt::print("  {:>6} {:>9} {:>9} {:>8} {:>7} {:>6} {:>13} {:>13} {:>8} {:>10}\n", "n",
               "snapshots", "datagram", "stream", "header", "flags", "puck v / pos",
               "players v/pos", "padding", "disks sent");
    for (std::size_t i = 0; i < DeltaBits::kAges; ++i) {
        const DeltaBits::Bucket& b = bits.by_age[i];
        if (b.snapshots == 0) continue;
        const auto n = static_cast<double>(b.snapshots);
        const auto per = [&](std::uint64_t x) { return static_cast<double>(x) / n; };
        fmt::print(
            "  {:>6} {:>9} {:>8.1f}B {:>7.1f}B {:>7.1f} {:>6.1f} {:>6.1f} / {:<5.1f} {:>6.1f} / "
            "{:<5.1f} {:>8.1f} {:>5.1f} of {:.0f}\n",
            DeltaBits::age_label(i), b.snapshots, per(b.datagram_bytes), per(b.stream_bytes),
            per(b.header_bits), per(b.flag_bits), per(b.puck_velocity_bits),
            per(b.puck_position_bits), per(b.player_velocity_bits), per(b.player_position_bits),
            per(b.padding_bits), per(b.disks_changed), per(b.disks));
    }
}

void run_link_part(const ServerOptions& o) {
    if (!o.json)
        fmt::print(
            "Bandwidth through the link simulator: 4 v 4 arena, 8 clients playing the chase bot, "
            "60 Hz snapshots,\n{} s of play a run, seeds {}: ranges over the seeds. Per client; "
            "payload, then with UDP/IP\n(28 B a datagram). Jitter ±10 ms each way (none at 0 ms). "
            "floor: the players' input changes.\n",
            o.link_seconds, fmt::join(o.seeds, " "));
    if (!o.json)
        fmt::print("  {:>4} {:>5} | {:>11} {:>11} | {:>11} {:>11} | {:>11} {:>9} | {:>9} {:>12}\n",
                   "rtt", "loss", "down B/s", "+UDP/IP", "up B/s", "+UDP/IP", "snapshot B",
                   "full B", "floor B/s", "repeated %");
    DeltaBits bits;
    for (const double rtt : o.rtts_ms) {
        for (const double loss : o.losses_percent) {
            std::vector<double> down, down_ip, up, up_ip, snap, full, floor, repeated;
            for (const std::uint64_t seed : o.seeds) {
                LinkRunOptions r;
                r.map = arena_map();
                r.seconds = o.link_seconds;
                r.seed = seed;
                r.link = {rtt, rtt > 0 ? 10.0 : 0.0, loss};
                if (rtt == 100 && loss == 5 && seed == o.seeds.front()) r.delta_bits = &bits;
                const LinkFigures f = run_link(r);
                down.push_back(f.down_bytes_per_s);
                down_ip.push_back(f.down_bytes_per_s + 28.0 * f.down_datagrams_per_s);
                up.push_back(f.up_bytes_per_s);
                up_ip.push_back(f.up_bytes_per_s + 28.0 * f.up_datagrams_per_s);
                snap.push_back(f.mean_snapshot_bytes);
                full.push_back(f.full_snapshot_bytes);
                floor.push_back(f.floor_bytes_per_s);
                repeated.push_back(100.0 * f.repeated_share);
                if (o.json)
                    fmt::print(
                        "{{\"bench\":\"server_link\",\"rtt_ms\":{},\"jitter_ms\":{},"
                        "\"loss_percent\":{},\"seed\":{},\"seconds\":{},"
                        "\"down_bytes_per_s\":{},\"down_datagrams_per_s\":{},"
                        "\"up_bytes_per_s\":{},\"up_datagrams_per_s\":{},"
                        "\"mean_snapshot_bytes\":{},\"full_snapshot_bytes\":{},"
                        "\"full_snapshots\":{},\"floor_bytes_per_s\":{},"
                        "\"input_changes\":{},\"repeated_share\":{},\"undecodable\":{}}}\n",
                        rtt, r.link.jitter_ms, loss, seed, o.link_seconds,
                        json_number(f.down_bytes_per_s, "{:.1f}"),
                        json_number(f.down_datagrams_per_s, "{:.2f}"),
                        json_number(f.up_bytes_per_s, "{:.1f}"),
                        json_number(f.up_datagrams_per_s, "{:.2f}"),
                        json_number(f.mean_snapshot_bytes, "{:.2f}"),
                        json_number(f.full_snapshot_bytes, "{:.0f}"), f.full_snapshots,
                        json_number(f.floor_bytes_per_s, "{:.1f}"), f.input_changes,
                        json_number(f.repeated_share, "{:.5f}"), f.undecodable);
            }
            if (!o.json)
                fmt::print(
                    "  {:>4} {:>4}% | {:>11} {:>11} | {:>11} {:>11} | {:>11} {:>9} | {:>9} "
                    "{:>12}\n",
                    rtt, loss, range(down, "{:.0f}"), range(down_ip, "{:.0f}"), range(up, "{:.0f}"),
                    range(up_ip, "{:.0f}"), range(snap, "{:.1f}"), range(full, "{:.0f}"),
                    range(floor, "{:.0f}"), range(repeated, "{:.2f}"));
        }
    }
    if (!o.json && bits.by_age[0].snapshots + bits.by_age[1].snapshots + bits.by_age[2].snapshots +
                           bits.by_age[3].snapshots >
                       0)
        print_delta_bits(bits);
    if (!o.json) fmt::print("\n");
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5)];
}

// CPU time this thread has used, in ms.
double thread_cpu_ms() {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Runs the handlers that are ready (the server's receives) without blocking.
void poll(asio::io_context& io) {
    if (io.stopped()) io.restart();
    io.poll();
}

// Reads every datagram waiting on a client socket and hands each valid packet on.
template <class OnPacket>
void drain(asio::ip::udp::socket& socket, OnPacket&& on_packet) {
    alignas(8) std::array<std::uint8_t, 2048> buffer{};
    std::error_code ec;
    for (;;) {
        const std::size_t got = socket.receive(asio::buffer(buffer), 0, ec);
        if (ec) break;
        if (const net::Packet* p = protocol::verify_packet(std::span(buffer.data(), got)).packet)
            on_packet(*p);
    }
}

// A client socket on 127.0.0.1 that completes the handshake; its client id.
std::uint32_t connect_socket(asio::io_context& io, asio::ip::udp::socket& socket,
                             const asio::ip::udp::endpoint& server, std::uint32_t index) {
    socket.open(asio::ip::udp::v4());
    socket.bind({asio::ip::make_address("127.0.0.1"), 0});
    socket.connect(server);
    socket.non_blocking(true);
    flatbuffers::FlatBufferBuilder b;
    const auto request = connect_request(b, index);
    socket.send(asio::buffer(request.data(), request.size()));
    poll(io);
    std::uint64_t cookie = 0;
    drain(socket, [&](const net::Packet& p) {
        if (const auto* c = p.body_as_Challenge()) cookie = c->cookie();
    });
    const auto response = connect_response(b, index, cookie);
    socket.send(asio::buffer(response.data(), response.size()));
    poll(io);
    std::uint32_t id = 0;
    drain(socket, [&](const net::Packet& p) {
        if (const auto* a = p.body_as_Accepted()) id = a->client_id();
    });
    if (id == 0) throw std::runtime_error(fmt::format("bench client {} not accepted", index));
    return id;
}

// --- bandwidth: one 4 v 4 room, eight clients acknowledging every snapshot.
struct Bandwidth {
    double bytes_per_s = 0;      // per client, payload only
    double datagrams_per_s = 0;  // per client
    double mean_snapshot_bytes = 0;
};

Bandwidth measure_bandwidth(bool delta, std::uint32_t ticks, std::vector<std::uint16_t>* sizes) {
    CountingTransport link;
    server::ServerConfig config = bench_config(8);
    config.delta_snapshots = delta;
    server::Server server(config, link, server::CookieJar{}, "bench");
    auto clients = connect_clients(server, link, 8);
    flatbuffers::FlatBufferBuilder b;
    const auto run = [&](std::uint32_t n) {
        for (std::uint32_t t = 0; t < n; ++t) {
            for (auto& c : clients)
                server.receive(c.at, next_input(b, c, config.input_redundancy,
                                                link.by_client[c.at].newest_snapshot));
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
    out.mean_snapshot_bytes =
        static_cast<double>(bytes - bytes0) /
        static_cast<double>(std::max<std::uint64_t>(1, datagrams - datagrams0));
    if (sizes != nullptr) *sizes = link.sizes;
    server.shutdown();
    return out;
}

// --- capacity: N clients on real loopback sockets, rooms of 8, one thread.
struct Capacity {
    std::uint32_t clients = 0;
    // Wall time of the measured tick: receive the inputs, Server::tick, flush.
    double p50_ms = 0, p99_ms = 0, max_ms = 0;
    // The same ticks in this thread's CPU time: what the shared machine's
    // other processes took while it waited is left out.
    double cpu_p50_ms = 0, cpu_p99_ms = 0;
    // Wall time of Server::tick and the flush alone, as carom-server's stats
    // line measures a tick: it reads datagrams as they arrive between ticks.
    double without_receive_p99_ms = 0;
    double load = 0;                      // mean CPU time of a tick over the tick period (16.7 ms)
    std::uint64_t snapshots_missing = 0;  // clients that fell behind by more than a snapshot
    // Input datagrams the server read, of those the clients sent in the timed
    // ticks: the rest overflowed the socket's receive buffer and cost it nothing.
    double received = 0;
    // Mean ms of a tick's parts: reading and handling the inputs (poll),
    // Server::tick (rooms, snapshot encoding, queueing), and the final flush.
    double receive_ms = 0, logic_ms = 0, send_ms = 0;
};

Capacity measure_capacity(std::uint32_t n, std::uint32_t ticks) {
    asio::io_context io;
    server::UdpTransport transport(io, "127.0.0.1", 0);
    server::ServerConfig config = bench_config(n);
    server::Server server(config, transport, server::CookieJar{}, "bench");
    transport.start_receiving(
        [&server](const server::Endpoint& from, std::span<const std::uint8_t> bytes) {
            server.receive(from, bytes);
        });
    struct SocketClient {
        std::unique_ptr<asio::ip::udp::socket> socket;
        InProcessClient state;
        std::uint64_t newest = 0;
    };
    std::vector<SocketClient> clients;
    flatbuffers::FlatBufferBuilder b;
    for (std::uint32_t i = 0; i < n; ++i) {
        SocketClient c;
        c.socket = std::make_unique<asio::ip::udp::socket>(io);
        c.state.index = i;
        c.state.id = connect_socket(io, *c.socket, transport.local_endpoint(), i);
        clients.push_back(std::move(c));
    }

    std::vector<double> times, cpu_times, without_receive;
    std::uint64_t missing = 0;
    std::uint64_t packets_in_before = 0;
    std::array<double, 3> phase_ms{};  // receive, Server::tick, flush
    for (std::uint32_t t = 0; t < 60 + ticks; ++t) {
        if (t == 60) packets_in_before = server.stats().packets_in;
        for (auto& c : clients) {
            drain(*c.socket, [&](const net::Packet& p) {
                if (const auto* s = p.body_as_Snapshot()) c.newest = std::max(c.newest, s->tick());
            });
            if (t >= 62 && c.newest + 2 < server.current_tick()) ++missing;
            const auto input = next_input(b, c.state, config.input_redundancy, c.newest);
            c.socket->send(asio::buffer(input.data(), input.size()));
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
        if (t >= 60) {
            times.push_back(std::chrono::duration<double, std::milli>(t3 - t0).count());
            cpu_times.push_back(cpu3 - cpu0);
            without_receive.push_back(std::chrono::duration<double, std::milli>(t3 - t1).count());
            phase_ms[0] += std::chrono::duration<double, std::milli>(t1 - t0).count();
            phase_ms[1] += std::chrono::duration<double, std::milli>(t2 - t1).count();
            phase_ms[2] += std::chrono::duration<double, std::milli>(t3 - t2).count();
        }
    }
    const std::uint64_t received = server.stats().packets_in - packets_in_before;
    server.shutdown();
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
    double sum = 0;
    for (double x : cpu_times)
        sum += x;
    out.load = sum / static_cast<double>(cpu_times.size()) / kTickMs;
    out.snapshots_missing = missing;
    return out;
}

// --- latency: from sending an input to receiving the first snapshot that
// reflects it (last_input_sequence), in real time over loopback UDP, one
// 4 v 4 room, inputs sent at random moments within the tick.
struct Latency {
    std::uint32_t snapshot_rate_hz = 0;
    double p50_ms = 0, p99_ms = 0;
    std::size_t samples = 0;
};

Latency measure_latency(std::uint32_t snapshot_rate_hz, double seconds) {
    asio::io_context io;
    server::UdpTransport transport(io, "127.0.0.1", 0);
    server::ServerConfig config = bench_config(8);
    config.snapshot_rate_hz = snapshot_rate_hz;
    config.bots = true;
    server::Server server(config, transport, server::CookieJar{}, "bench");
    transport.start_receiving(
        [&server](const server::Endpoint& from, std::span<const std::uint8_t> bytes) {
            server.receive(from, bytes);
        });
    asio::ip::udp::socket socket(io);
    InProcessClient client;
    client.id = connect_socket(io, socket, transport.local_endpoint(), 0);
    flatbuffers::FlatBufferBuilder b;

    std::map<std::uint32_t, Clock::time_point> sent;  // by sequence, not yet reflected
    std::vector<double> samples;
    std::uint64_t newest = 0;
    std::uint32_t reflected = 0;
    const auto on_packet = [&](const net::Packet& p) {
        const auto* s = p.body_as_Snapshot();
        if (s == nullptr) return;
        newest = std::max(newest, s->tick());
        const auto now = Clock::now();
        for (auto it = sent.begin(); it != sent.end() && it->first <= s->last_input_sequence();) {
            if (it->first > reflected)
                samples.push_back(
                    std::chrono::duration<double, std::milli>(now - it->second).count());
            it = sent.erase(it);
        }
        reflected = std::max(reflected, s->last_input_sequence());
    };
    const auto period = std::chrono::nanoseconds(1'000'000'000 / 60);
    std::uint32_t rng = 12345;  // xorshift32: where in the tick the input is sent
    const auto ticks = static_cast<std::uint32_t>(seconds * 60);
    auto next = Clock::now() + period;
    for (std::uint32_t t = 0; t < ticks; ++t) {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        const auto send_at = next - period + period * (rng % 1000) / 1000;
        std::this_thread::sleep_until(send_at);
        const auto input = next_input(b, client, config.input_redundancy, newest);
        sent[client.sequence] = Clock::now();
        socket.send(asio::buffer(input.data(), input.size()));
        poll(io);
        drain(socket, on_packet);
        std::this_thread::sleep_until(next);
        poll(io);
        server.tick();
        transport.flush();
        next += period;
        drain(socket, on_packet);
    }
    server.shutdown();
    return {snapshot_rate_hz, percentile(samples, 0.5), percentile(samples, 0.99), samples.size()};
}

// --- datagram cost: the transport's send (queued, sent by sendmmsg in
// batches) against a bare sendto loop of the same sizes.
struct DatagramCost {
    double transport_ns = 0, sendto_ns = 0;
};

DatagramCost measure_datagram_cost(const std::vector<std::uint16_t>& sizes) {
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

int run_server_bench(const ServerOptions& o) {
    spdlog::set_level(spdlog::level::warn);  // the rooms log every match they start
    const auto want = [&](const char* part) {
        return o.only.empty() || std::find(o.only.begin(), o.only.end(), part) != o.only.end();
    };
    if (want("link")) run_link_part(o);
    std::vector<std::uint16_t> sizes;
    // The datagram cost sends the sizes of the delta run: it runs when either part is wanted.
    const Bandwidth delta =
        want("bandwidth") || want("datagram") ? measure_bandwidth(true, 3600, &sizes) : Bandwidth{};
    const Bandwidth full =
        want("bandwidth") ? measure_bandwidth(false, 3600, nullptr) : Bandwidth{};
    const double ratio = delta.bytes_per_s / full.bytes_per_s;
    if (want("bandwidth") && o.json) {
        fmt::print(
            "{{\"bench\":\"server_bandwidth\",\"map\":\"arena\",\"clients\":8,"
            "\"delta_bytes_per_s\":{},\"full_bytes_per_s\":{},\"delta_over_full\":{},"
            "\"delta_mean_snapshot_bytes\":{},\"full_mean_snapshot_bytes\":{}}}\n",
            json_number(delta.bytes_per_s, "{:.1f}"), json_number(full.bytes_per_s, "{:.1f}"),
            json_number(ratio, "{:.3f}"), json_number(delta.mean_snapshot_bytes, "{:.1f}"),
            json_number(full.mean_snapshot_bytes, "{:.1f}"));
    } else if (want("bandwidth")) {
        fmt::print(
            "Bandwidth per client, 4 v 4 arena, 8 clients, 60 s of play, 30 Hz snapshots "
            "(payload bytes; UDP/IP adds 28 B a datagram)\n");
        fmt::print("  delta: {:8.1f} B/s ({:.1f} B a snapshot)\n", delta.bytes_per_s,
                   delta.mean_snapshot_bytes);
        fmt::print("  full:  {:8.1f} B/s ({:.1f} B a snapshot)\n", full.bytes_per_s,
                   full.mean_snapshot_bytes);
        fmt::print("  delta / full = {:.3f}\n\n", ratio);
    }
    if (want("capacity") && !o.json) {
        fmt::print(
            "Capacity: loopback UDP, rooms of 8 (arena), every client sends input each "
            "tick, {} ticks timed, one thread\n",
            o.ticks);
        fmt::print(
            "  tick = receive the inputs + Server::tick + flush, wall time (the target: p99 < 2 "
            "ms);\n"
            "  cpu = the same in this thread's CPU time; no-recv = Server::tick + flush only, as\n"
            "  carom-server's stats line times a tick (it reads datagrams between ticks)\n");
        fmt::print("  {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8}   {}\n",
                   "clients", "tick p50", "tick p99", "max", "cpu p50", "cpu p99", "no-recv",
                   "load", "behind", "received", "mean ms: receive / tick / flush");
    }
    for (std::uint32_t n : want("capacity") ? o.clients : std::vector<std::uint32_t>{}) {
        const Capacity c = measure_capacity(n, o.ticks);
        if (o.json) {
            fmt::print(
                "{{\"bench\":\"server_capacity\",\"clients\":{},\"rooms\":{},"
                "\"tick_ms_p50\":{},\"tick_ms_p99\":{},\"tick_ms_max\":{},"
                "\"cpu_ms_p50\":{},\"cpu_ms_p99\":{},\"tick_ms_p99_without_receive\":{},"
                "\"cpu\":{},"
                "\"client_ticks_behind\":{},\"inputs_received\":{},\"receive_ms_mean\":{},"
                "\"server_tick_ms_mean\":{},\"flush_ms_mean\":{}}}\n",
                c.clients, (n + 7) / 8, json_number(c.p50_ms, "{:.4f}"),
                json_number(c.p99_ms, "{:.4f}"), json_number(c.max_ms, "{:.4f}"),
                json_number(c.cpu_p50_ms, "{:.4f}"), json_number(c.cpu_p99_ms, "{:.4f}"),
                json_number(c.without_receive_p99_ms, "{:.4f}"), json_number(c.load, "{:.4f}"),
                c.snapshots_missing, json_number(c.received, "{:.4f}"),
                json_number(c.receive_ms, "{:.4f}"), json_number(c.logic_ms, "{:.4f}"),
                json_number(c.send_ms, "{:.4f}"));
        } else {
            fmt::print(
                "  {:>7} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>5.1f}% {:>6} "
                "{:>7.1f}%   {:.3f} / {:.3f} / {:.3f}\n",
                c.clients, c.p50_ms, c.p99_ms, c.max_ms, c.cpu_p50_ms, c.cpu_p99_ms,
                c.without_receive_p99_ms, 100.0 * c.load, c.snapshots_missing, 100.0 * c.received,
                c.receive_ms, c.logic_ms, c.send_ms);
        }
    }
    // The target: p99 at most one tick period + 1 ms.
    const double latency_target_ms = kTickMs + 1.0;
    for (std::uint32_t rate :
         want("latency") ? std::vector<std::uint32_t>{30, 60} : std::vector<std::uint32_t>{}) {
        const Latency l = measure_latency(rate, o.latency_seconds);
        const bool meets = l.p99_ms <= latency_target_ms;
        if (o.json) {
            fmt::print(
                "{{\"bench\":\"server_latency\",\"snapshot_rate_hz\":{},\"input_to_snapshot_ms_"
                "p50\":{},"
                "\"input_to_snapshot_ms_p99\":{},\"samples\":{},\"target_ms_p99\":{},"
                "\"meets_target\":{}}}\n",
                l.snapshot_rate_hz, json_number(l.p50_ms, "{:.3f}"),
                json_number(l.p99_ms, "{:.3f}"), l.samples,
                json_number(latency_target_ms, "{:.3f}"), meets);
        } else {
            if (rate == 30)
                fmt::print(
                    "\nLatency from sending an input to receiving the first snapshot that "
                    "reflects it (loopback, real time, {} s each;\ntarget: p99 at most a tick + 1 "
                    "ms = {:.2f} ms):\n",
                    o.latency_seconds, latency_target_ms);
            fmt::print("  {:2} Hz snapshots: p50 {:6.2f} ms, p99 {:6.2f} ms ({} samples): {}\n",
                       l.snapshot_rate_hz, l.p50_ms, l.p99_ms, l.samples,
                       meets ? "meets the target" : "misses the target");
            if (rate == 30)
                fmt::print(
                    "    (by construction: an input waits for the next tick, then for the "
                    "client's next snapshot,\n     which at 30 Hz comes every other tick: up to "
                    "two ticks, 33.3 ms)\n");
        }
    }
    if (!want("datagram")) return EXIT_SUCCESS;
    const DatagramCost cost = measure_datagram_cost(sizes);
    if (o.json) {
        fmt::print(
            "{{\"bench\":\"server_datagram_cost\",\"transport_ns\":{},\"sendto_ns\":{},"
            "\"ratio\":{}}}\n",
            json_number(cost.transport_ns, "{:.1f}"), json_number(cost.sendto_ns, "{:.1f}"),
            json_number(cost.transport_ns / cost.sendto_ns, "{:.3f}"));
    } else {
        fmt::print(
            "\nSending a snapshot-sized datagram (sizes of the delta run), best of 3 x 100000:\n");
        fmt::print("  UdpTransport::send {:.0f} ns, bare sendto {:.0f} ns, ratio {:.3f}\n",
                   cost.transport_ns, cost.sendto_ns, cost.transport_ns / cost.sendto_ns);
    }
    return EXIT_SUCCESS;
}

}  // namespace

void add_server_command(CLI::App& app) {
    auto options = std::make_shared<ServerOptions>();
    CLI::App* command = app.add_subcommand(
        "server", "Server bandwidth (delta vs full), capacity curve, datagram send cost");
    command->add_option("--clients", options->clients, "Client counts of the capacity curve")
        ->capture_default_str();
    command->add_option("--ticks", options->ticks, "Timed ticks per capacity point")
        ->capture_default_str();
    command
        ->add_option("--latency-seconds", options->latency_seconds,
                     "Real-time seconds of each latency run")
        ->capture_default_str();
    command
        ->add_option("--only", options->only,
                     "Run only these parts (link, bandwidth, capacity, latency, datagram)")
        ->check(CLI::IsMember({"link", "bandwidth", "capacity", "latency", "datagram"}));
    command->add_option("--link-seconds", options->link_seconds, "Seconds of play a link run")
        ->capture_default_str();
    command->add_option("--seeds", options->seeds, "Seeds of the link runs (ranges over them)")
        ->capture_default_str();
    command->add_option("--rtt", options->rtts_ms, "Round trips of the link runs, ms")
        ->capture_default_str();
    command->add_option("--loss", options->losses_percent, "Loss of the link runs, % each way")
        ->capture_default_str();
    command->add_flag("--json", options->json, "One JSON object per line instead of a table");
    command->callback([options] {
        const int status = run_server_bench(*options);
        if (status != EXIT_SUCCESS) throw CLI::RuntimeError(status);
    });
}

}  // namespace carom::bench
