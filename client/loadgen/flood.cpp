// carom-flood: a hostile sender for measuring the server under a flood, on
// loopback only. As fast as it can for --seconds, it sends a mix of forged
// ConnectResponse packets (valid FlatBuffers, random cookies, half of them
// padded: each costs the server a verification, a rate-limit lookup and, within
// the limit, a cookie hash) and junk (junk.hpp: random bytes,
// wrong identifiers, truncated and random tables), in batches of sendmmsg.
// It only ever sends to 127.0.0.1.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "carom/cli/cli.hpp"
#include "carom/protocol/net.hpp"
#include "junk.hpp"

namespace {

// Every other one padded to the size the server answers (256 bytes), so it
// passes the size check and reaches the rate limit and the cookie check.
std::vector<std::uint8_t> forged_response(std::mt19937_64& rng) {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<std::uint8_t> pad(rng() % 2 == 0 ? 0 : 240, 0);
    const auto body = carom::net::CreateConnectResponse(b, b.CreateString("x"), -1, false, rng(),
                                                        rng(), b.CreateVector(pad));
    const auto bytes =
        carom::protocol::finish_packet(b, 0, carom::net::Body::ConnectResponse, body.Union());
    return {bytes.begin(), bytes.end()};
}

}  // namespace

int main(int argc, char** argv) {
    std::uint16_t port = 0;
    double seconds = 5.0;
    std::uint64_t seed = 1;
    std::uint32_t junk_percent = 50;
    CLI::App app{"carom-flood: floods a carom-server on 127.0.0.1 with hostile datagrams"};
    app.add_option("--port", port, "The server's UDP port on 127.0.0.1")->required();
    app.add_option("--seconds", seconds, "How long to flood (at most 600)")
        ->check(carom::cli::finite(0.001, 600))
        ->capture_default_str();
    app.add_option("--seed", seed, "Seed of the forged packets")->capture_default_str();
    app.add_option("--junk-percent", junk_percent, "Share of junk; the rest forged responses")
        ->check(carom::cli::finite(0, 100))
        ->capture_default_str();
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;

    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return 1;
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only, whatever else is asked
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) return 1;

    // A pool of datagrams made up front, so the loop only sends.
    std::mt19937_64 rng(seed);
    constexpr std::size_t kPool = 4096;
    std::vector<std::vector<std::uint8_t>> pool;
    for (std::size_t i = 0; i < kPool; ++i)
        pool.push_back(rng() % 100 < junk_percent ? carom::loadgen::make_junk(rng, i)
                                                  : forged_response(rng));

    constexpr std::size_t kBatch = 64;
    std::array<mmsghdr, kBatch> messages{};
    std::array<iovec, kBatch> vectors{};
    std::uint64_t sent = 0, failed = 0, bytes = 0;
    std::size_t next = 0;
    const auto end = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(seconds));
    while (std::chrono::steady_clock::now() < end) {
        for (std::size_t i = 0; i < kBatch; ++i) {
            auto& d = pool[(next + i) % kPool];
            vectors[i] = {d.data(), d.size()};
            messages[i].msg_hdr.msg_iov = &vectors[i];
            messages[i].msg_hdr.msg_iovlen = 1;
        }
        const int n = ::sendmmsg(fd, messages.data(), kBatch, 0);
        if (n > 0) {
            for (int i = 0; i < n; ++i)
                bytes += pool[(next + static_cast<std::size_t>(i)) % kPool].size();
            sent += static_cast<std::uint64_t>(n);
            next += static_cast<std::size_t>(n);
        } else {
            ++failed;  // ECONNREFUSED after an ICMP error, or a full buffer: keep going
        }
    }
    ::close(fd);
    std::printf("{\"sent\": %llu, \"bytes\": %llu, \"send_failures\": %llu, \"seconds\": %.1f}\n",
                static_cast<unsigned long long>(sent), static_cast<unsigned long long>(bytes),
                static_cast<unsigned long long>(failed), seconds);
    return 0;
}
