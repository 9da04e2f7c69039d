#pragma once
// One player's side of a match, without sockets, terminal or clock: the
// connection, the map it names, your disk predicted, the others
// interpolated, your keys (or the chase bot), and what a frame shows. The
// terminal client and the tests drive it the same way: datagrams in, a tick
// every 1/60 s, a scene whenever a frame is drawn, time passed to each.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "carom/client/connection.hpp"
#include "carom/game/match.hpp"
#include "carom/play/held_keys.hpp"
#include "carom/play/interpolator.hpp"
#include "carom/play/predictor.hpp"
#include "carom/render/scene.hpp"

namespace carom::play {

struct SessionConfig {
    client::ConnectionConfig connection;
    std::vector<std::filesystem::path> map_dirs;
    bool bot = false;  // the chase bot steers instead of the keys
    HoldConfig keys;
    PredictorConfig prediction;
};

// Why a session ended, as a one-line message and the exit status.
struct Ending {
    int exit_code = 0;
    std::string message;
};

class Session {
  public:
    Session(SessionConfig config, client::Connection::SendFn send);

    void start(std::uint64_t now_ms) { connection_.connect(now_ms); }
    void on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);
    // One simulation tick (call at the server's tick rate): retries and
    // timeouts, then the input of this tick sent and predicted.
    void tick(std::uint64_t now_ms);
    void press(Key key, std::uint64_t now_ms) { keys_.press(key, now_ms); }
    void quit(std::uint64_t now_ms) { connection_.disconnect(now_ms); }

    // What to draw at `now_ms`; valid until the next call.
    render::Scene scene(std::uint64_t now_ms, bool show_roster);

    // Set once the session is over (closed, or the map could not be loaded).
    std::optional<Ending> ending() const;

    const client::Connection& connection() const { return connection_; }
    const Predictor* predictor() const { return predictor_.get(); }
    const Interpolator* interpolator() const { return interpolator_.get(); }
    const game::Map* map() const { return map_ ? &*map_ : nullptr; }
    std::uint64_t frames_rejected() const { return frames_rejected_; }

  private:
    void on_accepted();
    void on_new_frame(const client::Frame& frame, std::uint64_t now_ms);
    void on_new_match(const client::MatchInfo& info);
    game::Team team_of(game::Slot slot) const;
    std::string name_of(std::int32_t slot) const;
    std::string banner(const client::Frame& frame) const;
    game::Input next_input(std::uint64_t now_ms) const;
    void send(game::Input input, std::uint64_t now_ms);  // and predict it
    render::Hud hud(std::uint64_t now_ms) const;
    void note_traffic(std::uint64_t now_ms);

    SessionConfig config_;
    client::Connection connection_;
    HeldKeys keys_;
    bool accepted_ = false;
    bool cushioned_ = false;
    std::optional<game::Map> map_;
    std::unique_ptr<game::Match> rules_;  // counts of pucks and slots; teams until a roster comes
    std::string map_problem_;
    std::unique_ptr<Predictor> predictor_;
    std::unique_ptr<Interpolator> interpolator_;
    std::uint64_t newest_tick_ = 0;
    std::optional<client::MatchInfo> match_;     // the match being shown
    std::optional<std::uint64_t> kickoff_tick_;  // server tick of the last kick-off
    std::optional<client::ReceivedEvent> goal_;  // the newest goal event of this match
    std::uint64_t frames_rejected_ = 0;

    struct Traffic {
        std::uint64_t ms, bytes_in, bytes_out;
    };
    std::vector<Traffic> traffic_;  // about one second of samples

    std::vector<render::DiskView> disks_;
    std::vector<render::RosterLine> roster_;
};

}  // namespace carom::play
