#include "server/link.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "carom/client/bot_driver.hpp"
#include "carom/client/connection.hpp"
#include "carom/linksim/link_simulator.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/protocol/update.hpp"
#include "carom/replay/reader.hpp"
#include "server.hpp"

namespace carom::bench {
namespace {

constexpr std::int64_t kStepUs = 250;
constexpr std::int64_t kTickUs = 1'000'000 / 60;

std::size_t varint_bytes(std::uint64_t v) {
    std::size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}

// Bits of an Exp-Golomb code of order 0 of v.
double code_bits(std::uint64_t v) {
    return static_cast<double>(2 * std::bit_width(v + 1) - 1);
}

double signed_code_bits(std::int64_t v) {
    return code_bits(v >= 0 ? 2 * static_cast<std::uint64_t>(v)
                            : 2 * static_cast<std::uint64_t>(-(v + 1)) + 1);
}

double delta_bits(const protocol::InputDelta& d) {
    switch (d.kind) {
        case protocol::InputDelta::Kind::kick_flip:
            return 2;
        case protocol::InputDelta::Kind::literal:
            return 7;
        default:
            return 3;
    }
}

linksim::LinkSpec spec_of(const LinkCondition& c) {
    linksim::LinkSpec s;
    s.latency_ms = c.rtt_ms / 2.0;
    s.jitter_ms = c.jitter_ms;
    s.loss_percent = c.loss_percent;
    return s;
}

// The bytes of the players' input changes in every replay under `dir`.
std::pair<std::uint64_t, std::uint64_t> input_change_bytes(const std::filesystem::path& dir) {
    std::uint64_t bytes = 0, changes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        // The server keeps its index of matches (index.sqlite, -wal, -shm) beside them.
        if (entry.path().extension() != ".crpl") continue;
        auto read = replay::read_replay(entry.path());
        if (!read)
            throw std::runtime_error("link bench: unreadable replay " + entry.path().string() +
                                     " " + read.error().message);
        const replay::Replay* r = &*read;
        std::uint64_t previous = 0;
        for (const replay::InputChange& c : r->inputs) {
            bytes += varint_bytes((c.tick - previous) * 32 + c.slot) + 1;
            previous = c.tick;
            ++changes;
        }
    }
    return {bytes, changes};
}

struct Player {
    server::Endpoint at;
    std::unique_ptr<client::Connection> connection;
    client::BotDriver bot;
    std::unique_ptr<linksim::LinkSimulator<>> up, down;
    std::int64_t next_tick_us = 0;
    std::uint64_t down_bytes = 0, down_datagrams = 0;
    std::uint64_t newest_sent = 0;  // the newest tick an update to it reached
};

// The server's side of every client's downlink: it counts what goes in,
// byte by byte, before the link loses any of it.
class Downlinks final : public server::Transport {
  public:
    Downlinks(std::vector<Player>& players, std::uint32_t slots)
        : players_(players), slots_(slots) {}

    void send(const server::Endpoint& to, std::span<const std::uint8_t> datagram) override {
        for (Player& p : players_) {
            if (!(p.at == to)) continue;
            ++p.down_datagrams;
            p.down_bytes += datagram.size();
            count(p, datagram);
            p.down->send(now_us, datagram);
        }
    }

    std::int64_t now_us = 0;
    std::uint64_t full_states = 0, full_bytes_max = 0, updates = 0, update_bytes = 0;
    DownstreamBytes bytes;  // totals, not yet per second

  private:
    void count(Player& p, std::span<const std::uint8_t> sealed) {
        const auto size = static_cast<double>(sealed.size());
        // Read as the player will: opened with a copy of its keys.
        std::span<const std::uint8_t> datagram = sealed;
        protocol::DatagramBuffer buffer{};
        if (protocol::is_sealed(sealed)) {
            const protocol::SessionSeal* seal = p.connection->session_seal();
            if (seal == nullptr) return;
            protocol::SessionSeal copy = *seal;
            protocol::SealRefusal refused{};
            datagram = copy.open(sealed, buffer, refused);
            if (datagram.empty()) return;
        }
        if (protocol::classify(datagram) == protocol::DatagramKind::packet) {
            const auto packet = protocol::verify_packet(datagram);
            if (packet && (*packet)->body_as_FullState() != nullptr) {
                ++full_states;
                full_bytes_max = std::max<std::uint64_t>(full_bytes_max, sealed.size());
                bytes.full_states += size;
                p.newest_sent = std::max(p.newest_sent, (*packet)->body_as_FullState()->tick());
            }
            return;
        }
        const auto verified = protocol::verify_server_update(datagram);
        if (!verified) return;
        const net::ServerUpdate& s = **verified;
        const std::uint64_t tick = protocol::extend16(s.head()->tick(), p.newest_sent);
        const auto u = protocol::decode_update(s, tick, {slots_, true});
        if (!u) return;
        ++updates;
        update_bytes += sealed.size();
        // The 44 bytes every update has: 16 of FlatBuffers (the identifier
        // left out), the seal's header and tag, the tick, the state check, 4 of stream.
        bytes.framing += 16;
        bytes.mac += protocol::kSealHeaderBytes + protocol::kSealTagBytes;
        bytes.tick += 2;
        bytes.state += 2;
        const std::uint64_t n = u->tick - u->baseline;
        double bits = 0;
        const auto add = [&](double& to, double b) {
            to += b / 8.0;
            bits += b;
        };
        add(bytes.age, code_bits(n - 1));
        add(bytes.sequence, signed_code_bits(static_cast<std::int32_t>(
                                u->sequence_advance - static_cast<std::uint32_t>(n))));
        add(bytes.count, code_bits(u->inputs.size()));
        const double slot_bits = slots_ <= 1 ? 0 : static_cast<double>(std::bit_width(slots_ - 1));
        std::uint64_t previous = u->baseline + 1;
        for (const protocol::InputChange& c : u->inputs) {
            const double b = code_bits(c.tick - previous) + slot_bits + delta_bits(c.delta);
            previous = c.tick;
            add(c.tick > p.newest_sent ? bytes.first_changes : bytes.resent_changes, b);
        }
        const double more = s.more() != nullptr ? static_cast<double>(s.more()->size()) : 0.0;
        bytes.unused += 4.0 + more - bits / 8.0;
        const double table =
            44.0 + (more > 0
                        ? 8.0 + more + static_cast<double>((4 - static_cast<int>(more) % 4) % 4)
                        : 0.0);
        bytes.more_framing += more > 0 ? table - 44.0 - more : 0.0;
        bytes.rare += size - table;
        p.newest_sent = std::max(p.newest_sent, tick);
    }

    std::vector<Player>& players_;
    std::uint32_t slots_;
};

// Each player's address (127.0.0.1, a port each), its links both ways and its Connection.
void set_up_players(std::vector<Player>& players, Downlinks& transport, const LinkRunOptions& o) {
    const linksim::LinkSpec spec = spec_of(o.link);
    for (std::uint32_t i = 0; i < players.size(); ++i) {
        Player& p = players[i];
        p.at.address[10] = p.at.address[11] = 0xFF;
        p.at.address[12] = 127;
        p.at.address[15] = 1;
        p.at.port = static_cast<std::uint16_t>(40000 + i);
        p.up =
            std::make_unique<linksim::LinkSimulator<>>(spec, linksim::derive_seed(o.seed, 2 * i));
        p.down = std::make_unique<linksim::LinkSimulator<>>(
            spec, linksim::derive_seed(o.seed, 2 * i + 1));
        client::ConnectionConfig cc;
        cc.name = fmt::format("p{}", i);
        cc.history_ticks = 0;  // it draws nothing
        cc.token = o.seed * 1000 + i + 1;
        Player* self = &p;
        p.connection = std::make_unique<client::Connection>(
            cc, [self, &transport](std::span<const std::uint8_t> b) {
                self->up->send(transport.now_us, b);
            });
        // Client ticks fall at their own phase within the server's tick.
        p.next_tick_us = 1000 + static_cast<std::int64_t>(i) * 1900 % kTickUs;
    }
}

// The match on the simulated clock up to `end_us`: each step delivers what
// the links let through, then the server's tick and the clients' when due,
// each client playing the game's bot on its copy.
void play(std::vector<Player>& players, Downlinks& transport, server::Server& server,
          const game::Map& map, std::int64_t end_us) {
    std::int64_t next_server_us = kTickUs;
    for (Player& p : players)
        p.connection->connect(0);
    for (std::int64_t now = 0; now <= end_us; now += kStepUs) {
        transport.now_us = now;
        const auto now_ms = static_cast<std::uint64_t>(now / 1000);
        for (Player& p : players) {
            p.up->deliver(now, [&](std::span<const std::uint8_t> b, std::monostate) {
                server.receive(p.at, b);
            });
            p.down->deliver(now, [&](std::span<const std::uint8_t> b, std::monostate) {
                p.connection->on_datagram(b, now_ms);
            });
        }
        if (now >= next_server_us) {
            server.tick();
            next_server_us += kTickUs;
        }
        for (Player& p : players) {
            if (now < p.next_tick_us) continue;
            p.next_tick_us += kTickUs;
            client::Connection& c = *p.connection;
            c.update(now_ms);
            if (c.state() != client::State::connected) continue;
            if (c.replica() == nullptr) c.set_map(game::CheckedMap(map));
            c.send_input(p.bot.next(*c.replica(), c.admission().slot), now_ms);
        }
    }
}

// The run's figures, per client per second, but the information floor.
LinkFigures figures_of(const std::vector<Player>& players, const Downlinks& transport,
                       const server::Server& server, double seconds) {
    const auto clients = static_cast<std::uint32_t>(players.size());
    LinkFigures f;
    f.clients = clients;
    for (const Player& p : players) {
        const client::ConnectionStats& s = p.connection->stats();
        f.down_bytes_per_s += static_cast<double>(p.down_bytes);
        f.down_datagrams_per_s += static_cast<double>(p.down_datagrams);
        f.up_bytes_per_s += static_cast<double>(s.bytes_out);
        f.up_datagrams_per_s += static_cast<double>(s.packets_out);
        f.undecodable += s.undecodable;
        f.hash_mismatches += s.hash_mismatches;
        f.resyncs += s.resyncs;
    }
    const double per = static_cast<double>(clients) * seconds;
    f.down_bytes_per_s /= per;
    f.down_datagrams_per_s /= per;
    f.up_bytes_per_s /= per;
    f.up_datagrams_per_s /= per;
    f.mean_update_bytes = transport.updates == 0 ? 0.0
                                                 : static_cast<double>(transport.update_bytes) /
                                                       static_cast<double>(transport.updates);
    f.full_state_bytes = static_cast<double>(transport.full_bytes_max);
    f.full_states = transport.full_states;
    f.down = transport.bytes;
    for (double* x :
         {&f.down.framing, &f.down.mac, &f.down.tick, &f.down.state, &f.down.age, &f.down.sequence,
          &f.down.count, &f.down.first_changes, &f.down.resent_changes, &f.down.unused,
          &f.down.more_framing, &f.down.rare, &f.down.full_states})
        *x /= per;
    const std::uint64_t player_ticks = server.stats().ticks * clients;
    f.repeated_share = static_cast<double>(server.stats().inputs_repeated) /
                       static_cast<double>(std::max<std::uint64_t>(player_ticks, 1));
    return f;
}

}  // namespace

LinkFigures run_link(const LinkRunOptions& o) {
    auto loaded = maps::load_map_file(o.map);
    if (!loaded) throw std::runtime_error(loaded.error().message);
    const game::Map map = *loaded;
    const game::Match rules(map, 1);
    const std::uint32_t clients = o.clients != 0 ? o.clients : rules.slot_count();

    const std::filesystem::path replays =
        std::filesystem::temp_directory_path() /
        fmt::format("carom-bench-link-{}-{}", ::getpid(), std::random_device{}());
    std::filesystem::create_directories(replays);

    std::vector<Player> players(clients);
    Downlinks transport(players, rules.slot_count());
    server::ServerConfig config;
    config.maps = {o.map};
    config.bots = false;
    config.seed = o.seed;
    config.replay_dir = replays;
    config.max_clients = clients;
    config.max_sessions_per_ip = clients;
    server::DiskThread disk;  // as carom-server runs its file work
    auto server =
        std::make_unique<server::Server>(config, transport, disk, server::CookieJar{}, "link");
    set_up_players(players, transport, o);

    const auto end_us = static_cast<std::int64_t>(o.seconds * 1e6);
    play(players, transport, *server, map, end_us);

    LinkFigures f = figures_of(players, transport, *server, o.seconds);
    for (Player& p : players)
        p.connection->disconnect(static_cast<std::uint64_t>(end_us / 1000));
    server->shutdown();
    server.reset();
    const auto [bytes, changes] = input_change_bytes(replays);
    f.floor_bytes_per_s = static_cast<double>(bytes) / o.seconds;
    f.input_changes = changes;
    std::filesystem::remove_all(replays);
    return f;
}

}  // namespace carom::bench
