#pragma once
// One simulated player (or spectator): a Connection over its own wire (a
// connected UDP socket, or a WebSocket as a browser's), driven by the game's
// bot (client::BotDriver) once the server accepted it. With a link spec, both
// directions pass through a simulated link (linksim) between the Connection
// and the wire.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "carom/client/bot_driver.hpp"
#include "carom/client/connection.hpp"
#include "carom/linksim/link_simulator.hpp"
#include "clock.hpp"
#include "report.hpp"
#include "wire.hpp"

namespace carom::loadgen {

class SimClient {
  public:
    SimClient(asio::io_context& io, std::unique_ptr<Wire> wire, client::ConnectionConfig config,
              const RunClock& clock, client::MapStore& maps);
    // Every datagram from here on crosses the simulated link, each direction
    // with its own seed.
    void simulate_link(const linksim::LinkSpec& spec, std::uint64_t up_seed,
                       std::uint64_t down_seed);
    // Plays scripted human-like keys (seeded) instead of the game's bot.
    void play_human(std::uint64_t seed) { human_ = HumanKeys{std::mt19937_64(seed), 0, 0, {}}; }
    SimClient(const SimClient&) = delete;
    SimClient& operator=(const SimClient&) = delete;

    void start();
    // Once per client tick: retries and timeouts, then one input when connected.
    void tick();
    // What happened, then a clean Disconnect and the wire closed (a
    // WebSocket's close completes as the io_context runs on).
    ClientResult finish();

    const client::Connection& connection() const { return connection_; }
    // What the simulated link did (zeros without one).
    linksim::LinkStats uplink_stats() const { return up_ ? up_->stats() : linksim::LinkStats{}; }
    linksim::LinkStats downlink_stats() const {
        return down_ ? down_->stats() : linksim::LinkStats{};
    }

  private:
    void on_wire(std::span<const std::uint8_t> bytes);
    void send(std::span<const std::uint8_t> bytes);
    void send_now(std::span<const std::uint8_t> bytes);
    void on_datagram(std::span<const std::uint8_t> bytes);
    // Delivers what the simulated link has due, then waits for the next.
    void pump();
    void arm_pump();
    void on_accepted(std::uint64_t now_ms);
    // Once the room's map is held (found in the store the clients share, or
    // fetched and left there for the others), or why it could not be.
    void note_map();
    game::Input next_input();

    std::unique_ptr<Wire> wire_;
    const RunClock& clock_;
    bool spectator_;
    client::Connection connection_;
    std::optional<linksim::LinkSimulator<>> up_;    // client -> server
    std::optional<linksim::LinkSimulator<>> down_;  // server -> client
    asio::steady_timer pump_timer_;
    std::optional<std::int64_t> pump_armed_us_;
    bool closing_ = false;  // the last Disconnect goes straight out

    std::optional<std::uint64_t> accepted_ms_;
    // Silences are timed on the clock's awake time: the load generator's own
    // stalls are not the server's.
    std::optional<std::uint64_t> accepted_awake_ms_;
    // Update arrival: the longest silence since acceptance, the end of the run included.
    std::optional<std::uint64_t> last_update_awake_ms_;
    std::uint64_t updates_seen_ = 0;
    std::uint64_t max_gap_ms_ = 0;
    void note_updates(std::uint64_t now_ms);
    // Input application: the longest an input sent waited for an update that
    // shows it applied (the server's last applied input of this client). A
    // session frozen by a forged sequence number shows here, even while
    // updates keep coming.
    std::deque<std::pair<std::uint32_t, std::uint64_t>> waiting_;  // sequence, awake ms sent
    std::uint64_t max_input_stall_ms_ = 0;
    std::vector<double> input_waits_ms_;
    void note_sent();
    // Keys a person holds instead of the bot (play_human): a direction for
    // 100 to 300 ms, about 5 changes a second, now and then let go or a kick
    // tapped.
    struct HumanKeys {
        std::mt19937_64 rng;
        std::uint32_t ticks_left = 0;
        std::uint32_t kick_left = 0;
        game::Input held;
    };
    std::optional<HumanKeys> human_;
    game::Input human_input();
    bool map_known_ = false;  // the connection holds the room's map
    std::string map_problem_;
    client::BotDriver bot_;
};

}  // namespace carom::loadgen
