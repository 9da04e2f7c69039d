#pragma once
// A real carom Server and one play::Player in one process, joined by a
// simulated link: a fixed one-way latency each way and independent loss,
// from a seeded generator. Time is simulated in microseconds; the server
// ticks every 1/60 s, the client ticks on its own phase of the same rate.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "carom/maps/library_map_store.hpp"
#include "carom/play/player.hpp"
#include "server.hpp"

namespace carom::play::test {

inline const std::filesystem::path kMaps = CAROM_MAPS_DIR;

// One direction of the link: what is in flight, by delivery time.
class Pipe {
  public:
    Pipe(std::int64_t latency_us, double loss, std::mt19937_64& rng)
        : latency_us_(latency_us), loss_(loss), rng_(rng) {}

    void push(std::int64_t now_us, std::span<const std::uint8_t> bytes) {
        ++sent_;
        if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < loss_) {
            ++lost_;
            return;
        }
        flight_.emplace(now_us + latency_us_,
                        std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
    }
    // Hands over every datagram due by `now_us`, in order.
    void deliver(std::int64_t now_us,
                 const std::function<void(std::span<const std::uint8_t>)>& to) {
        while (!flight_.empty() && flight_.begin()->first <= now_us) {
            const std::vector<std::uint8_t> bytes = std::move(flight_.begin()->second);
            flight_.erase(flight_.begin());
            to(bytes);
        }
    }
    std::uint64_t sent() const { return sent_; }
    std::uint64_t lost() const { return lost_; }

  private:
    std::int64_t latency_us_;
    double loss_;
    std::mt19937_64& rng_;
    std::multimap<std::int64_t, std::vector<std::uint8_t>> flight_;
    std::uint64_t sent_ = 0;
    std::uint64_t lost_ = 0;
};

struct LinkConfig {
    double rtt_ms = 150.0;
    double loss = 0.05;
    std::uint64_t seed = 1;
    bool bots = true;
    const char* map = "arena.json";
    bool bot_client = false;  // the player steers with the game's bot
    bool spectator = false;
    double final_pause_s = 5.0;
    bool ghosts = false;  // the prediction steps the others as ghosts, not with their inputs
    std::filesystem::path map_file;   // instead of `map` in the maps directory
    bool client_has_maps = true;      // the client's map directories hold the shipped maps
    std::filesystem::path map_cache;  // the client's map cache (empty: none)
    client::SendPolicyConfig send;    // when the client sends (its cushion is the Player's)
};

class LossyWorld {
  public:
    static constexpr std::int64_t kTickUs = 1'000'000 / 60;

    explicit LossyWorld(const LinkConfig& c)
        : rng_(c.seed),
          down_(static_cast<std::int64_t>(c.rtt_ms * 500.0), c.loss, rng_),
          up_(static_cast<std::int64_t>(c.rtt_ms * 500.0), c.loss, rng_),
          transport_(*this),
          server_(server_config(c), transport_, disk_, server::CookieJar{}, "lossy"),
          maps_(maps::MapLibrary(c.map_cache, c.client_has_maps
                                                  ? std::vector<std::filesystem::path>{kMaps}
                                                  : std::vector<std::filesystem::path>{})),
          player_(player_config(c), maps_,
                  [this](std::span<const std::uint8_t> b) { up_.push(now_us_, b); }) {
        client_at_.address[10] = client_at_.address[11] = 0xFF;
        client_at_.address[12] = 127;
        client_at_.address[15] = 2;
        client_at_.port = 40000;
        player_.start(now_ms());
    }

    std::int64_t now_us() const { return now_us_; }
    std::uint64_t now_ms() const { return static_cast<std::uint64_t>(now_us_ / 1000); }
    Player& player() { return player_; }
    server::Server& server() { return server_; }
    Pipe& down() { return down_; }
    Pipe& up() { return up_; }

    // Runs until `until_us`, 1 ms at a time. After each server tick
    // `on_server_tick`, after each client tick `on_client_tick` (when set).
    void run(std::int64_t until_us, const std::function<void()>& on_server_tick = {},
             const std::function<void()>& on_client_tick = {},
             const std::function<void()>& on_ms = {}) {
        for (; now_us_ < until_us; now_us_ += 1000) {
            up_.deliver(now_us_, [this](std::span<const std::uint8_t> b) {
                server_.receive(client_at_, b);
            });
            down_.deliver(now_us_, [this](std::span<const std::uint8_t> b) {
                player_.on_datagram(b, now_ms());
            });
            if (now_us_ >= next_server_us_) {
                server_.tick();
                next_server_us_ += kTickUs;
                if (on_server_tick) on_server_tick();
            }
            if (now_us_ >= next_client_us_) {
                player_.tick(now_ms());
                next_client_us_ += kTickUs;
                if (on_client_tick) on_client_tick();
            }
            if (on_ms) on_ms();
        }
    }

  private:
    struct Transport final : server::Transport {
        explicit Transport(LossyWorld& w) : world(w) {}
        void send(const server::Endpoint&, std::span<const std::uint8_t> d) override {
            world.down_.push(world.now_us_, d);
        }
        LossyWorld& world;
    };

    static server::ServerConfig server_config(const LinkConfig& c) {
        server::ServerConfig s;
        s.maps = {c.map_file.empty() ? kMaps / c.map : c.map_file};
        s.bots = c.bots;
        s.seed = c.seed;
        s.final_pause_s = c.final_pause_s;
        return s;
    }
    static PlayerConfig player_config(const LinkConfig& c) {
        PlayerConfig s;
        s.connection.name = "lossy";
        s.connection.token = c.seed;
        s.bot = c.bot_client;
        s.connection.spectator = c.spectator;
        s.connection.send = c.send;
        s.prediction.others_hold_inputs = !c.ghosts;
        return s;
    }

    std::int64_t now_us_ = 0;
    std::int64_t next_server_us_ = 0;
    std::int64_t next_client_us_ = 7'000;  // the client's ticks fall between the server's
    std::mt19937_64 rng_;
    Pipe down_;
    Pipe up_;
    Transport transport_;
    server::Endpoint client_at_;
    server::InlineDiskWork disk_;
    server::Server server_;
    maps::LibraryMapStore maps_;  // the player's: before it
    Player player_;
};

}  // namespace carom::play::test
