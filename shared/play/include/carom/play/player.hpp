#pragma once
// One player's side of a match, without sockets, terminal or clock: the
// connection and its exact copy of the room's match, your disk predicted
// from it, the others interpolated over its past ticks, your keys (or the
// game's bot), and what a frame shows. The terminal client and the tests
// drive it the same way: datagrams in, a tick every 1/60 s, a scene
// whenever a frame is drawn, time passed to each.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "carom/client/bot_driver.hpp"
#include "carom/client/connection.hpp"
#include "carom/client/map_store.hpp"
#include "carom/play/held_keys.hpp"
#include "carom/play/interpolator.hpp"
#include "carom/play/predictor.hpp"
#include "carom/render/scene_builder.hpp"

namespace carom::play {

struct PlayerConfig {
    client::ConnectionConfig connection;
    bool bot = false;  // the game's bot steers instead of the keys
    HoldConfig keys;
    PredictorConfig prediction;
};

// Why a player's match ended, as a one-line message and the exit status.
struct Ending {
    int exit_code = 0;
    std::string message;
};

class Player {
  public:
    // `maps` (the host's: files, a cache, a browser's store) outlives the player.
    Player(PlayerConfig config, client::MapStore& maps, client::Connection::SendFn send);

    void start(std::uint64_t now_ms) { connection_.connect(now_ms); }
    void on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);
    // One simulation tick (call at the server's tick rate): retries and
    // timeouts, then the input of this tick sent and predicted.
    void tick(std::uint64_t now_ms);
    void press(Key key, std::uint64_t now_ms) { keys_.press(key, now_ms); }
    // A release, from a terminal that reports them (config.keys.releases).
    void release(Key key) { keys_.release(key); }
    // The caller steers (libcarom's clients): this input on every tick from
    // now on, instead of the keys. The bot, when configured, still steers.
    void steer(game::Input input) { steered_ = input; }
    void quit(std::uint64_t now_ms) { connection_.disconnect(now_ms); }

    // What to draw at `now_ms`; valid until the next call.
    render::Scene scene(std::uint64_t now_ms, bool show_roster);

    // Set once the match is over for this player (closed, or the map could not be loaded).
    std::optional<Ending> ending() const;

    const client::Connection& connection() const { return connection_; }
    // The room's match as the client holds it: null until a state arrived.
    const game::Match* match() const;
    const Predictor* predictor() const { return predictor_.get(); }
    const Interpolator* interpolator() const { return interpolator_.get(); }
    const game::Map* map() const { return map_ ? &map_->get() : nullptr; }
    // The same map, the one checked handle the copy and the predictor share.
    const game::CheckedMap* checked_map() const { return map_ ? &*map_ : nullptr; }
    // Where the map came from: a file (cached or a map file), or "the server".
    const std::string& map_source() const { return map_source_; }
    // Why a fetched map could not be kept in the cache (empty: it was, or none was fetched).
    const std::string& cache_problem() const { return cache_problem_; }

  private:
    // The room's map is here (found, or fetched): prediction and drawing start.
    void use_map(const client::MapReady& ready);
    void on_new_state(std::uint64_t now_ms);
    void on_new_match(const client::MatchInfo& info);
    std::string banner(const game::Match& match) const;
    game::Input next_input(std::uint64_t now_ms);
    void send(game::Input input, std::uint64_t now_ms);  // and predict it
    // The network figures and the tick rate, onto a HUD the scene builder filled.
    void add_network_figures(render::Hud& h) const;
    void note_traffic(std::uint64_t now_ms);

    PlayerConfig config_;
    client::Connection connection_;
    HeldKeys keys_;
    std::optional<game::Input> steered_;
    client::BotDriver bot_;
    bool cushioned_ = false;
    std::optional<game::CheckedMap> map_;
    std::string map_source_;  // the file the map came from, or "the server"
    std::string map_problem_;
    std::string cache_problem_;  // the fetched map could not be kept (play goes on)
    std::unique_ptr<Predictor> predictor_;
    std::unique_ptr<Interpolator> interpolator_;
    std::uint64_t newest_tick_ = 0;
    std::optional<client::MatchInfo> match_info_;  // the match being shown
    std::optional<std::uint64_t> kickoff_tick_;    // server tick of the last kick-off
    std::optional<client::ServerEvent> goal_;      // the newest goal event of this match

    struct Traffic {
        std::uint64_t ms, bytes_in, bytes_out;
    };
    std::vector<Traffic> traffic_;  // about one second of samples

    render::SceneBuilder scenes_;
};

}  // namespace carom::play
