// carom-flood: a hostile sender for measuring the server under a flood, on
// loopback only. As fast as it can (or at --rate) for --seconds it sends, in
// batches of sendmmsg, the attacks chosen with --attacks (attacks.hpp), kinds
// taking turns. By default the original mix: forged ConnectResponses (half
// padded) and junk. --abuse adds two sessions of its own in --abuse-room: one
// sends 1000 inputs a second with replayed old inputs, sequence numbers far
// ahead and behind and acks of snapshots never sent mixed in; the other never
// acks a snapshot (its deltas must fall back to full snapshots). The report
// (one JSON line) says what was sent and what the abusers saw.
// It only ever sends to 127.0.0.1.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "attacks.hpp"
#include "carom/cli/cli.hpp"
#include "carom/client/connection.hpp"
#include "carom/protocol/client_report.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/proof.hpp"

namespace {

using namespace carom;
using namespace carom::loadgen;
using Clock = std::chrono::steady_clock;
using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kBatch = 64;
constexpr std::size_t kPool = 512;
constexpr std::size_t kPorts = 128;
constexpr std::size_t kLargestUdp = 65507;

std::uint64_t now_ms(Clock::time_point start) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
}

int loopback_socket(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only, whatever else is asked
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Sends `datagrams` on a connected socket in one call; returns how many went.
std::size_t send_batch(int fd, const std::vector<std::span<const std::uint8_t>>& datagrams) {
    std::array<mmsghdr, kBatch> messages{};
    std::array<iovec, kBatch> vectors{};
    const std::size_t n = std::min(datagrams.size(), kBatch);
    for (std::size_t i = 0; i < n; ++i) {
        vectors[i] = {const_cast<std::uint8_t*>(datagrams[i].data()), datagrams[i].size()};
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
    }
    const int sent = ::sendmmsg(fd, messages.data(), static_cast<unsigned>(n), 0);
    return sent > 0 ? static_cast<std::size_t>(sent) : 0;
}

// A datagram as if from another address: IPv4 and UDP headers by hand on a
// raw socket (root only). The UDP checksum is left 0 (none, allowed on IPv4).
class ForgedSender {
  public:
    static std::unique_ptr<ForgedSender> open(std::uint16_t server_port) {
        const int fd = ::socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
        if (fd < 0) return nullptr;
        return std::unique_ptr<ForgedSender>(new ForgedSender(fd, server_port));
    }
    ~ForgedSender() { ::close(fd_); }
    bool send(std::uint16_t from_port, std::span<const std::uint8_t> payload) {
        std::array<std::uint8_t, 1500> packet{};
        if (payload.size() + sizeof(iphdr) + sizeof(udphdr) > packet.size()) return false;
        iphdr ip{};
        ip.version = 4;
        ip.ihl = 5;
        ip.ttl = 64;
        ip.protocol = IPPROTO_UDP;
        ip.saddr = htonl(INADDR_LOOPBACK);
        ip.daddr = htonl(INADDR_LOOPBACK);
        const auto total = sizeof ip + sizeof(udphdr) + payload.size();
        ip.tot_len = htons(static_cast<std::uint16_t>(total));
        udphdr udp{};
        udp.source = htons(from_port);
        udp.dest = htons(server_port_);
        udp.len = htons(static_cast<std::uint16_t>(sizeof udp + payload.size()));
        std::memcpy(packet.data(), &ip, sizeof ip);
        std::memcpy(packet.data() + sizeof ip, &udp, sizeof udp);
        std::memcpy(packet.data() + sizeof ip + sizeof udp, payload.data(), payload.size());
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return ::sendto(fd_, packet.data(), total, 0, reinterpret_cast<const sockaddr*>(&to),
                        sizeof to) > 0;
    }

  private:
    ForgedSender(int fd, std::uint16_t port) : fd_(fd), server_port_(port) {}
    int fd_;
    std::uint16_t server_port_;
};

// One session of the flooder's own, over its own socket.
class Abuser {
  public:
    Abuser(std::uint16_t port, std::int32_t room, const std::string& name)
        : fd_(loopback_socket(port)),
          connection_(config(room, name), [this](std::span<const std::uint8_t> b) {
              (void)::send(fd_, b.data(), b.size(), 0);
          }) {}
    ~Abuser() {
        if (fd_ >= 0) ::close(fd_);
    }

    // The handshake, waiting up to 3 s.
    bool connect(Clock::time_point start) {
        connection_.connect(now_ms(start));
        const auto give_up = Clock::now() + std::chrono::seconds(3);
        while (Clock::now() < give_up && connection_.state() == client::State::connecting) {
            pollfd p{fd_, POLLIN, 0};
            ::poll(&p, 1, 20);
            drain(start);
            connection_.update(now_ms(start));
        }
        return connection_.state() == client::State::connected;
    }

    // Reads what the server sent; counts snapshots full and delta.
    void drain(Clock::time_point start) {
        alignas(8) std::array<std::uint8_t, 2048> buffer{};
        for (;;) {
            const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), MSG_DONTWAIT);
            if (n <= 0) return;
            const std::span<const std::uint8_t> d(buffer.data(), static_cast<std::size_t>(n));
            if (protocol::classify(d) == protocol::DatagramKind::server_update) {
                if (const auto u = protocol::verify_server_update(d)) {
                    ++delta;
                    newest_tick = std::max(newest_tick,
                                           protocol::extend16((*u)->head()->tick(), newest_tick));
                }
            } else if (const auto p = protocol::verify_packet(d); p && (*p)->body_as_FullState()) {
                ++full;
                newest_tick = std::max(newest_tick, (*p)->body_as_FullState()->tick());
            }
            if (connection_.state() != client::State::closed)
                connection_.on_datagram(d, now_ms(start));
        }
    }

    // A ClientUpdate of the session, made by hand: `count` idle inputs from
    // sequence `first` on, and `ack`, with the session's proof.
    void send_input(std::uint32_t first, std::uint32_t count, std::uint64_t ack) {
        flatbuffers::FlatBufferBuilder b;
        protocol::ClientReport r;
        r.inputs.assign(count, game::Input::idle());
        r.sequence = first + count - 1;
        if (ack != 0) r.ack = ack;
        r.proof = protocol::client_proof(session().secret, r.sequence, ack);
        const auto bytes = protocol::encode_client_report(b, r);
        (void)::send(fd_, bytes.data(), bytes.size(), 0);
        ++inputs_sent;
    }

    client::Connection& connection() { return connection_; }
    const client::Admission& session() const { return connection_.admission(); }
    bool ok() const { return fd_ >= 0; }
    std::uint64_t full = 0, delta = 0, inputs_sent = 0, newest_tick = 0;

  private:
    static client::ConnectionConfig config(std::int32_t room, const std::string& name) {
        client::ConnectionConfig c;
        c.name = name;
        c.room = room;
        c.token = std::random_device{}();
        return c;
    }
    int fd_;
    client::Connection connection_;
};

std::vector<std::uint16_t> parse_ports(const std::vector<std::string>& victims) {
    std::vector<std::uint16_t> ports;
    for (const std::string& v : victims) {
        const auto colon = v.rfind(':');
        ports.push_back(static_cast<std::uint16_t>(std::stoul(v.substr(colon + 1))));
    }
    return ports;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint16_t port = 0;
    double seconds = 5.0;
    std::uint64_t seed = 1;
    std::uint32_t junk_percent = 50;
    std::vector<std::string> attack_names;
    std::vector<std::string> victims;
    bool abuse = false;
    std::int32_t abuse_room = 1;
    double rate = 0.0;
    CLI::App app{"carom-flood: floods a carom-server on 127.0.0.1 with hostile datagrams"};
    app.add_option("--port", port, "The server's UDP port on 127.0.0.1")->required();
    app.add_option("--seconds", seconds, "How long to flood (at most 600)")
        ->check(carom::cli::finite(0.001, 600))
        ->capture_default_str();
    app.add_option("--seed", seed, "Seed of the forged packets")->capture_default_str();
    app.add_option("--junk-percent", junk_percent,
                   "Without --attacks: share of junk, the rest forged responses")
        ->check(carom::cli::finite(0, 100))
        ->capture_default_str();
    app.add_option("--attacks", attack_names,
                   "Kinds, taking turns: junk, every-size, bit-flips, forged-cookies, "
                   "wrong-versions, wrong-ids, many-ports, forged-source, or all")
        ->delimiter(',');
    app.add_option("--victims", victims,
                   "forged-source: 127.0.0.1:PORT of the sessions to impersonate")
        ->delimiter(',');
    app.add_flag("--abuse", abuse, "Two abusive sessions of the flooder's own (see above)");
    app.add_option("--abuse-room", abuse_room, "The room the abusers join")->capture_default_str();
    app.add_option("--rate", rate, "Datagrams per second (0: as fast as it can)")
        ->capture_default_str();
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    std::vector<Attack> attacks;
    for (const std::string& name : attack_names) {
        if (name == "all") {
            for (std::size_t i = 0; i < static_cast<std::size_t>(Attack::count_); ++i)
                attacks.push_back(static_cast<Attack>(i));
            continue;
        }
        Attack a{};
        if (!parse_attack(name, a)) {
            std::fprintf(stderr, "--attacks: unknown kind '%s'\n", name.c_str());
            return 2;
        }
        attacks.push_back(a);
    }
    std::vector<std::uint16_t> victim_ports;
    try {
        victim_ports = parse_ports(victims);
    } catch (const std::exception&) {
        std::fprintf(stderr, "--victims: expected 127.0.0.1:PORT,...\n");
        return 2;
    }

    const int fd = loopback_socket(port);
    if (fd < 0) return 1;
    std::mt19937_64 rng(seed);
    const Clock::time_point start = Clock::now();

    std::unique_ptr<ForgedSender> forged;
    if (std::find(attacks.begin(), attacks.end(), Attack::forged_source) != attacks.end()) {
        forged = victim_ports.empty() ? nullptr : ForgedSender::open(port);
        if (!forged) {
            std::fprintf(
                stderr, "carom-flood: forged-source skipped: %s\n",
                victim_ports.empty() ? "no --victims" : "a raw socket needs root (CAP_NET_RAW)");
            std::erase(attacks, Attack::forged_source);
        }
    }
    std::vector<int> port_fds;
    if (std::find(attacks.begin(), attacks.end(), Attack::many_ports) != attacks.end())
        for (std::size_t i = 0; i < kPorts; ++i)
            if (const int f = loopback_socket(port); f >= 0) port_fds.push_back(f);

    // Pools made up front, so the loop only sends.
    std::map<Attack, std::vector<Bytes>> pools;
    std::vector<Bytes> mix;  // the default: junk and forged responses
    for (const Attack a : attacks)
        if (a != Attack::every_size)
            for (std::size_t i = 0; i < kPool; ++i)
                pools[a].push_back(make_attack(a, rng, i));
    if (attacks.empty() && !abuse)
        for (std::size_t i = 0; i < 8 * kPool; ++i)
            mix.push_back(rng() % 100 < junk_percent ? make_attack(Attack::junk, rng, i)
                                                     : make_attack(Attack::forged_cookies, rng, i));
    Bytes big(kLargestUdp);
    for (auto& b : big)
        b = static_cast<std::uint8_t>(rng());

    std::optional<Abuser> storm, silent;
    bool storm_joined = false, silent_joined = false;
    if (abuse) {
        storm.emplace(port, abuse_room, "storm");
        silent.emplace(port, abuse_room, "noack");
        storm_joined = storm->connect(start);
        silent_joined = silent->connect(start);
        if (!storm_joined || !silent_joined)
            std::fprintf(stderr, "carom-flood: an abusive session was not accepted\n");
        else
            std::fprintf(stderr, "carom-flood: abusive sessions connected\n");
    }

    std::map<Attack, std::uint64_t> sent_by;
    std::uint64_t sent = 0, bytes = 0, next = 0, sizes = 0;
    std::uint64_t storm_next_ms = 0, silent_next_ms = 0;
    std::uint32_t storm_seq = 1, silent_seq = 1;
    const auto end =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::size_t turn = 0;
    while (Clock::now() < end) {
        const bool throttled =
            rate > 0.0 && static_cast<double>(sent) >=
                              rate * std::chrono::duration<double>(Clock::now() - start).count();
        if (throttled) {
            ::usleep(200);
        } else if (!mix.empty()) {
            std::vector<std::span<const std::uint8_t>> batch;
            for (std::size_t i = 0; i < kBatch; ++i)
                batch.emplace_back(mix[(next + i) % mix.size()]);
            const std::size_t n = send_batch(fd, batch);
            for (std::size_t i = 0; i < n; ++i)
                bytes += batch[i].size();
            sent += n, next += n;
        } else if (!attacks.empty()) {
            const Attack a = attacks[turn++ % attacks.size()];
            std::size_t n = 0;
            if (a == Attack::every_size) {
                std::vector<std::span<const std::uint8_t>> batch;
                for (std::size_t i = 0; i < 8; ++i)  // large ones: fewer per turn
                    batch.emplace_back(big.data(), (sizes + i) % (kLargestUdp + 1));
                n = send_batch(fd, batch);
                for (std::size_t i = 0; i < n; ++i)
                    bytes += batch[i].size();
                sizes += n;
            } else if (a == Attack::many_ports) {
                auto& pool = pools[a];
                for (std::size_t i = 0; i < kBatch && !port_fds.empty(); ++i) {
                    const Bytes& d = pool[(next + i) % pool.size()];
                    if (::send(port_fds[(next + i) % port_fds.size()], d.data(), d.size(), 0) > 0)
                        ++n, bytes += d.size();
                }
            } else if (a == Attack::forged_source) {
                auto& pool = pools[a];
                for (std::size_t i = 0; i < kBatch; ++i) {
                    const Bytes& d = pool[(next + i) % pool.size()];
                    if (forged->send(victim_ports[(next + i) % victim_ports.size()], d))
                        ++n, bytes += d.size();
                }
            } else {
                auto& pool = pools[a];
                std::vector<std::span<const std::uint8_t>> batch;
                for (std::size_t i = 0; i < kBatch; ++i)
                    batch.emplace_back(pool[(next + i) % pool.size()]);
                n = send_batch(fd, batch);
                for (std::size_t i = 0; i < n; ++i)
                    bytes += batch[i].size();
            }
            sent_by[a] += n;
            sent += n, next += n;
        }
        if (abuse) {
            const std::uint64_t ms = now_ms(start);
            // 1000 inputs a second, each acking its newest snapshot; every 50th
            // replays old inputs, jumps far ahead or behind, or acks the future.
            if (storm_joined) {
                storm->drain(start);
                for (; storm_next_ms <= ms; ++storm_next_ms) {
                    switch (storm->inputs_sent % 200) {
                        case 50:
                            storm->send_input(1, 8, storm->newest_tick);  // replayed old inputs
                            break;
                        case 100:
                            storm->send_input(storm_seq + (1u << 31), 8, storm->newest_tick);
                            break;
                        case 150:
                            storm->send_input(storm_seq - 100'000, 8, storm->newest_tick);
                            break;
                        case 199:
                            storm->send_input(storm_seq, 1, storm->newest_tick + 1'000'000);
                            break;
                        default:
                            storm->send_input(storm_seq++, 8, storm->newest_tick);
                    }
                }
            }
            // 60 inputs a second that never ack a snapshot.
            if (silent_joined) {
                silent->drain(start);
                for (; silent_next_ms <= ms; silent_next_ms += 16)
                    silent->send_input(silent_seq++, 8, 0);
            }
            if (attacks.empty() && mix.empty()) ::usleep(500);
        }
    }
    ::close(fd);
    for (const int f : port_fds)
        ::close(f);

    std::string by_kind;
    for (const auto& [a, n] : sent_by)
        by_kind += (by_kind.empty() ? "" : ", ") + std::string("\"") + std::string(to_string(a)) +
                   "\": " + std::to_string(n);
    std::string abusers;
    if (abuse) {
        storm->drain(start);
        silent->drain(start);
        const auto state = [](Abuser& a) {
            return a.connection().state() == client::State::connected ? "true" : "false";
        };
        abusers = ", \"abuse\": {\"storm_inputs\": " + std::to_string(storm->inputs_sent) +
                  ", \"storm_connected\": " + state(*storm) +
                  ", \"noack_full\": " + std::to_string(silent->full) +
                  ", \"noack_delta\": " + std::to_string(silent->delta) +
                  ", \"noack_connected\": " + state(*silent) + "}";
    }
    std::printf("{\"sent\": %llu, \"bytes\": %llu, \"seconds\": %.1f, \"by_kind\": {%s}%s}\n",
                static_cast<unsigned long long>(sent), static_cast<unsigned long long>(bytes),
                seconds, by_kind.c_str(), abusers.c_str());
    return 0;
}
