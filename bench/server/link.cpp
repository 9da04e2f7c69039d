#include "server/link.hpp"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "carom/client/chase_bot.hpp"
#include "carom/client/connection.hpp"
#include "carom/linksim/link_simulator.hpp"
#include "carom/protocol/map_file.hpp"
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
        auto read = replay::read_replay(entry.path());
        const auto* r = std::get_if<replay::Replay>(&read);
        if (r == nullptr)
            throw std::runtime_error("link bench: unreadable replay " + entry.path().string());
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
    std::unique_ptr<linksim::LinkSimulator<>> up, down;
    std::int64_t next_tick_us = 0;
    std::uint64_t down_bytes = 0, down_datagrams = 0;
};

class Downlinks final : public server::Transport {
  public:
    Downlinks(std::vector<Player>& players, DeltaBits* bits, std::uint32_t pucks,
              std::uint32_t disks)
        : players_(players), bits_(bits), pucks_(pucks), disks_(disks) {}
    void send(const server::Endpoint& to, std::span<const std::uint8_t> datagram) override {
        for (Player& p : players_) {
            if (!(p.at == to)) continue;
            ++p.down_datagrams;
            p.down_bytes += datagram.size();
            if (const net::Packet* packet = protocol::verify_packet(datagram).packet;
                packet != nullptr && packet->body_type() == net::Body::Snapshot) {
                const bool full = packet->body_as_Snapshot()->baseline_tick() == 0;
                if (full) {
                    ++full_snapshots;
                    full_bytes = std::max<std::uint64_t>(full_bytes, datagram.size());
                } else {
                    ++steady_snapshots;
                    steady_bytes += datagram.size();
                    const net::Snapshot& s = *packet->body_as_Snapshot();
                    if (bits_ != nullptr && s.delta() != nullptr)
                        bits_->add(datagram.size(), s.tick() - s.baseline_tick(),
                                   {s.delta()->data(), s.delta()->size()}, pucks_, disks_);
                }
            }
            p.down->send(now_us, datagram);
        }
    }
    std::int64_t now_us = 0;
    std::uint64_t full_snapshots = 0, full_bytes = 0, steady_snapshots = 0, steady_bytes = 0;

  private:
    std::vector<Player>& players_;
    DeltaBits* bits_;
    std::uint32_t pucks_, disks_;
};

}  // namespace

LinkFigures run_link(const LinkRunOptions& o) {
    auto loaded = protocol::load_map_file(o.map);
    if (const auto* error = std::get_if<std::string>(&loaded)) throw std::runtime_error(*error);
    const game::Map map = std::get<game::Map>(loaded);
    const game::Match rules(map, 1);

    const std::filesystem::path replays =
        std::filesystem::temp_directory_path() /
        fmt::format("carom-bench-link-{}-{}", ::getpid(), std::random_device{}());
    std::filesystem::create_directories(replays);

    std::vector<Player> players(o.clients);
    Downlinks transport(players, o.delta_bits, rules.puck_count(),
                        rules.puck_count() + rules.slot_count());
    server::ServerConfig config;
    config.maps = {o.map};
    config.bots = false;
    config.seed = o.seed;
    config.snapshot_rate_hz = 60;
    config.replay_dir = replays;
    config.max_clients = o.clients;
    config.max_sessions_per_ip = o.clients;
    auto server = std::make_unique<server::Server>(config, transport, server::CookieJar{}, "link");

    const linksim::LinkSpec spec = spec_of(o.link);
    for (std::uint32_t i = 0; i < o.clients; ++i) {
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
        cc.token = o.seed * 1000 + i + 1;
        Player* self = &p;
        p.connection = std::make_unique<client::Connection>(
            cc, [self, &transport](std::span<const std::uint8_t> b) {
                self->up->send(transport.now_us, b);
            });
        // Client ticks fall at their own phase within the server's tick.
        p.next_tick_us = 1000 + static_cast<std::int64_t>(i) * 1900 % kTickUs;
    }

    const auto end_us = static_cast<std::int64_t>(o.seconds * 1e6);
    std::int64_t next_server_us = kTickUs;
    for (Player& p : players)
        p.connection->connect(0);
    const game::Vec2 goals[2] = {client::opposing_goal(map, game::Team::left),
                                 client::opposing_goal(map, game::Team::right)};
    const double reach = client::kick_distance(map.tuning);
    for (std::int64_t now = 0; now <= end_us; now += kStepUs) {
        transport.now_us = now;
        for (Player& p : players) {
            p.up->deliver(now, [&](std::span<const std::uint8_t> b, std::monostate) {
                server->receive(p.at, b);
            });
            p.down->deliver(now, [&](std::span<const std::uint8_t> b, std::monostate) {
                p.connection->on_datagram(b, static_cast<std::uint64_t>(now / 1000));
            });
        }
        if (now >= next_server_us) {
            server->tick();
            next_server_us += kTickUs;
        }
        for (Player& p : players) {
            if (now < p.next_tick_us) continue;
            p.next_tick_us += kTickUs;
            const auto now_ms = static_cast<std::uint64_t>(now / 1000);
            client::Connection& c = *p.connection;
            c.update(now_ms);
            if (c.state() != client::State::connected) continue;
            game::Input input = game::Input::idle();
            const protocol::Frame* frame = c.latest_frame();
            if (frame != nullptr && c.session().slot >= 0 &&
                frame->disks.size() == std::size_t{rules.puck_count()} + rules.slot_count())
                input = client::chase_input(*frame, static_cast<game::Slot>(c.session().slot),
                                            rules.puck_count(), goals[c.session().team & 1], reach);
            c.send_input(input, now_ms);
        }
    }

    LinkFigures f;
    std::uint64_t player_ticks = 0;
    for (const Player& p : players) {
        const client::ConnectionStats& s = p.connection->stats();
        f.down_bytes_per_s += static_cast<double>(p.down_bytes);
        f.down_datagrams_per_s += static_cast<double>(p.down_datagrams);
        f.up_bytes_per_s += static_cast<double>(s.bytes_out);
        f.up_datagrams_per_s += static_cast<double>(s.packets_out);
        f.undecodable += s.snapshots_undecodable;
    }
    player_ticks = server->stats().ticks * o.clients;
    const double per = static_cast<double>(o.clients) * o.seconds;
    f.down_bytes_per_s /= per;
    f.down_datagrams_per_s /= per;
    f.up_bytes_per_s /= per;
    f.up_datagrams_per_s /= per;
    f.mean_snapshot_bytes = transport.steady_snapshots == 0
                                ? 0.0
                                : static_cast<double>(transport.steady_bytes) /
                                      static_cast<double>(transport.steady_snapshots);
    f.full_snapshot_bytes = static_cast<double>(transport.full_bytes);
    f.full_snapshots = transport.full_snapshots;
    f.repeated_share = static_cast<double>(server->stats().inputs_repeated) /
                       static_cast<double>(std::max<std::uint64_t>(player_ticks, 1));
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
