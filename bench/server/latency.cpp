#include "server/latency.hpp"

#include <chrono>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "carom/client/connection.hpp"
#include "carom/maps/map_file.hpp"
#include "json_line.hpp"
#include "server/harness.hpp"
#include "server/loopback.hpp"
#include "udp_host.hpp"

namespace carom::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The target: p99 at most one tick period + 1 ms.
constexpr double kLatencyTargetMs = kTickMs + 1.0;

const char* label(LatencyInput input) {
    switch (input) {
        case LatencyInput::every_tick:
            return "every tick's input";
        case LatencyInput::after_quiet:
            return "a change after a quiet spell";
        case LatencyInput::after_quiet_cushioned:
            return "the same, with the tick before it";
    }
    return "";
}

}  // namespace

Latency measure_latency(LatencyInput input, std::uint32_t update_rate_hz, double seconds) {
    asio::io_context io;
    server::UdpTransport transport(io, "127.0.0.1", 0);
    server::ServerConfig config = bench_config(8);
    config.update_rate_hz = update_rate_hz;
    config.bots = true;
    server::DiskThread disk;  // as carom-server runs its file work
    server::Server server(config, transport, disk, server::CookieJar{}, "bench");
    transport.start_receiving(
        [&server](const server::Endpoint& from, std::span<const std::uint8_t> bytes) {
            server.receive(from, bytes);
        });
    // A real client: it holds the room's match and reads its sequence from each update.
    asio::ip::udp::socket socket(io);
    open_loopback(socket, transport.local_endpoint());
    client::ConnectionConfig cc;
    cc.name = "latency";
    cc.token = 1;
    cc.send.every_tick = input == LatencyInput::every_tick;
    cc.send.cushion = input == LatencyInput::after_quiet_cushioned;
    client::Connection connection(cc, [&](std::span<const std::uint8_t> b) {
        socket.send(asio::buffer(b.data(), b.size()));
    });
    const auto start = Clock::now();
    const auto now_ms = [&] {
        return static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
    };
    const auto receive = [&] {
        poll(io);
        drain(socket,
              [&](std::span<const std::uint8_t> d) { connection.on_datagram(d, now_ms()); });
    };
    connection.connect(now_ms());
    for (int i = 0; i < 100 && connection.state() != client::State::connected; ++i)
        receive();
    if (connection.state() != client::State::connected)
        throw std::runtime_error("latency bench: the client was not accepted");
    auto loaded = maps::load_map_file(arena_map());
    if (!loaded) throw std::runtime_error(loaded.error().message);
    connection.set_map(game::CheckedMap(*loaded));

    std::map<std::uint32_t, Clock::time_point> sent;  // by sequence, not yet reflected
    std::vector<double> samples;
    const auto on_received = [&] {
        const auto now = Clock::now();
        const std::uint32_t applied = connection.last_input_sequence();
        for (auto it = sent.begin(); it != sent.end() && it->first <= applied;) {
            samples.push_back(std::chrono::duration<double, std::milli>(now - it->second).count());
            it = sent.erase(it);
        }
    };
    const auto period = std::chrono::nanoseconds(1'000'000'000 / 60);
    std::uint32_t rng = 12345;  // xorshift32: where in the tick the input is sent
    const auto ticks = static_cast<std::uint32_t>(seconds * 60);
    auto next = Clock::now() + period;
    std::uint32_t warm_up = 60;  // a second to take the first state
    // After a quiet spell: a direction held 6 to 11 ticks (none of them
    // sent, the server repeating it), then the next; only the change is timed.
    std::uint8_t held_direction = 0;
    std::uint32_t quiet_left = 0;
    for (std::uint32_t t = 0; t < ticks + warm_up; ++t) {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        const auto send_at = next - period + period * (rng % 1000) / 1000;
        std::this_thread::sleep_until(send_at);
        const std::uint32_t sequence = connection.next_sequence();
        bool timed = true;
        game::Input in = game::Input::from_bits(scripted_input(0, sequence));
        if (input != LatencyInput::every_tick) {
            timed = quiet_left == 0;
            if (timed) {
                held_direction = static_cast<std::uint8_t>((held_direction + 1 + rng % 7) % 16);
                quiet_left = 6 + (rng >> 8) % 6;
            }
            --quiet_left;
            in = game::Input::move(held_direction);
        }
        connection.send_input(in, now_ms());
        if (t >= warm_up && timed) sent[sequence] = Clock::now();
        receive();
        on_received();
        std::this_thread::sleep_until(next);
        poll(io);
        server.tick();
        transport.flush();
        next += period;
        receive();
        on_received();
    }
    server.shutdown();
    return {input, update_rate_hz, percentile(samples, 0.5), percentile(samples, 0.99),
            samples.size()};
}

void print_latency(const Latency& l, double seconds, bool json) {
    const bool meets = l.p99_ms <= kLatencyTargetMs;
    if (json) {
        print_json_line({
            {"bench", "server_latency"},
            {"input", l.input == LatencyInput::every_tick    ? "every_tick"
                      : l.input == LatencyInput::after_quiet ? "after_quiet"
                                                             : "after_quiet_cushioned"},
            {"update_rate_hz", l.update_rate_hz},
            {"input_to_update_ms_p50", rounded(l.p50_ms, 3)},
            {"input_to_update_ms_p99", rounded(l.p99_ms, 3)},
            {"samples", l.samples},
            {"target_ms_p99", rounded(kLatencyTargetMs, 3)},
            {"meets_target", meets},
        });
        return;
    }
    const bool first = l.input == LatencyInput::every_tick && l.update_rate_hz == 30;
    if (first)
        fmt::print(
            "\nLatency from sending an input to receiving the first update that "
            "reflects it (loopback, real time, {} s each;\ntarget: p99 at most a tick + 1 "
            "ms = {:.2f} ms):\n",
            seconds, kLatencyTargetMs);
    fmt::print("  {:<36} {:2} Hz updates: p50 {:6.2f} ms, p99 {:6.2f} ms ({} samples): {}\n",
               label(l.input), l.update_rate_hz, l.p50_ms, l.p99_ms, l.samples,
               meets ? "meets the target" : "misses the target");
    if (first)
        fmt::print(
            "    (by construction: an input waits for the next tick, then for the "
            "client's next update,\n     which at 30 Hz comes every other tick: up to "
            "two ticks, 33.3 ms)\n");
    if (l.input == LatencyInput::after_quiet_cushioned)
        fmt::print(
            "    (by construction: the server applies the tick before the change on the tick "
            "it arrives,\n     the change on the next: a tick more)\n");
}

}  // namespace carom::bench
