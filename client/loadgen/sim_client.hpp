#pragma once
// One simulated player (or spectator): a Connection over its own connected
// UDP socket, driven by the chase bot once the server accepted it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <asio.hpp>

#include "carom/client/chase_bot.hpp"
#include "carom/client/connection.hpp"
#include "clock.hpp"
#include "map_cache.hpp"
#include "report.hpp"

namespace carom::loadgen {

class SimClient {
  public:
    // Throws asio::system_error when the socket cannot be opened or connected.
    SimClient(asio::io_context& io, const asio::ip::udp::endpoint& server,
              client::ConnectionConfig config, const RunClock& clock, MapCache& maps);
    SimClient(const SimClient&) = delete;
    SimClient& operator=(const SimClient&) = delete;

    void start();
    // Once per client tick: retries and timeouts, then one input when connected.
    void tick();
    // What happened, then a clean Disconnect and the socket closed.
    ClientResult finish();

    const client::Connection& connection() const { return connection_; }

  private:
    void receive();
    void send(std::span<const std::uint8_t> bytes);
    void on_accepted(std::uint64_t now_ms);
    game::Input next_input() const;

    asio::ip::udp::socket socket_;
    const RunClock& clock_;
    MapCache& maps_;
    bool spectator_;
    client::Connection connection_;
    alignas(8) std::array<std::uint8_t, 2048> buffer_{};  // larger than any valid datagram
    std::uint64_t socket_errors_ = 0;

    std::optional<std::uint64_t> accepted_ms_;
    // Snapshot arrival: the longest silence since acceptance, the end of the run included.
    std::optional<std::uint64_t> last_snapshot_ms_;
    std::uint64_t snapshots_seen_ = 0;
    std::uint64_t max_gap_ms_ = 0;
    void note_snapshots(std::uint64_t now_ms);
    const LoadedMap* map_ = nullptr;
    std::string map_problem_;
    game::Vec2 goal_;
    double reach_ = client::kDefaultKickDistance;
};

}  // namespace carom::loadgen
