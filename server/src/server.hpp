#pragma once
// The authoritative server's logic: handshake, sessions, rooms, inputs in and
// updates out. It has no socket and no clock: datagrams come in through
// receive(), go out through a Transport, time is the tick count, advanced
// by tick(), and its replays' file work runs where a DiskWork puts it.
// carom-server drives it from an Asio socket, a fixed-rate timer and a
// thread for the files; tests drive it directly, the file work inline.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/connect_token.hpp"
#include "carom/protocol/update.hpp"
#include "carom/replay_index/index.hpp"
#include "config.hpp"
#include "cookie.hpp"
#include "disk_work.hpp"
#include "refusal_log.hpp"
#include "replay_budget.hpp"
#include "room.hpp"
#include "session.hpp"
#include "stats.hpp"
#include "transport.hpp"

namespace carom::server {

class Server {
  public:
    // Throws std::invalid_argument or std::runtime_error with the reason when
    // a map does not load, the config is inconsistent, or the replay
    // directory cannot be written.
    // `transport` and `disk` outlive the server.
    Server(const ServerConfig& config, Transport& transport, DiskWork& disk, CookieJar cookies,
           std::string run_id);
    ~Server();

    // One datagram from `from`. Never throws on any bytes: what is not valid
    // is counted and dropped.
    void receive(const Endpoint& from, std::span<const std::uint8_t> datagram);
    // One simulation tick of every room, timeouts, and the updates due this
    // tick (each client every tick_rate/update_rate ticks, offset per session).
    void tick();
    // Tell every client, finish every match's replay and wait for its file
    // work. The server takes no more ticks.
    std::vector<MatchSummary> shutdown();

    std::uint64_t current_tick() const { return tick_; }
    const Stats& stats() const { return stats_; }
    // The newest finished matches (at most kFinishedKept), and how many finished in all.
    static constexpr std::size_t kFinishedKept = 1024;
    const std::deque<MatchSummary>& finished_matches() const { return finished_; }
    std::uint64_t matches_finished() const { return matches_finished_; }
    std::size_t session_count() const { return sessions_.size(); }
    // Sessions that hold a slot (players, away ones included).
    std::uint32_t player_count() const;
    const Session* session(std::uint32_t client_id) const;
    const Room& room(std::uint32_t index) const { return *rooms_.at(index); }
    std::uint32_t room_count() const { return static_cast<std::uint32_t>(rooms_.size()); }
    const ServerConfig& config() const { return config_; }
    // The time in ms the host measured for the last tick (sent to clients).
    void set_last_tick_ms(float ms) { last_tick_ms_ = ms; }
    // Ticks the host skipped because it fell too far behind.
    void note_dropped_ticks(std::uint64_t n) { stats_.ticks_dropped += n; }
    // A tick that ran right after another to catch up with the schedule.
    void note_catch_up_tick() { ++stats_.ticks_catch_up; }

  private:
    // Construction, and what tick() and shutdown() share (server.cpp).
    void create_rooms(const std::string& run_id);
    void keep_finished(const MatchSummary& summary);
    // Before a session is placed in room `r`: it is awake, and visited by the tick.
    void wake_room(std::uint32_t r);
    void send(const Endpoint& to, std::span<const std::uint8_t> bytes);
    // A datagram of `session`'s, sealed with its keys.
    void send_sealed(Session& session, std::span<const std::uint8_t> bytes);

    // Datagrams in (server_receive.cpp).
    // A sealed datagram: opened with its session's keys, then handed on.
    void on_sealed(const Endpoint& from, std::span<const std::uint8_t> datagram);
    void on_session_packet(Session& session, std::span<const std::uint8_t> datagram);
    void on_client_update(Session& session, std::span<const std::uint8_t> datagram);
    void on_report(Session& session, const protocol::ClientReport& report);
    void drop_packet(const Endpoint& from, Drop why);

    // The handshake (server_handshake.cpp).
    void on_connect_request(const Endpoint& from, const net::Packet& packet, std::size_t size);
    void on_connect_response(const Endpoint& from, const net::Packet& packet, std::size_t size);
    void deny_version(const Endpoint& from, std::uint64_t nonce);
    // False (and counted) when `from`'s IP has had its handshake replies this second.
    bool handshake_budget(const Endpoint& from);
    std::uint64_t cookie_bucket() const;
    // On a token server: the response's connect token, opened and checked
    // (key, expiry, address, banned id); nullopt after sending Denied.
    std::optional<protocol::OpenedToken> admit_token(const Endpoint& from,
                                                     const net::ConnectResponse& response);
    // Whether a token may open a session for `client_key` (a reclaim token
    // from its hello): unused, used by this very key, or by the session
    // `existing` or the one `reclaim` names (its own holder, back). Else Denied.
    bool token_unused(const Endpoint& from, const net::ConnectResponse& response,
                      const protocol::OpenedToken& token, const protocol::Key& client_key,
                      const Session* existing, std::uint64_t reclaim);
    // The token is used: it opened (or took back) `session`'s keys.
    void note_token(const protocol::OpenedToken& token, const Session& session);
    std::uint64_t unix_now_s() const;
    // True when a session of `token` (not 0) was reclaimed for `from` with
    // these keys and accepted again.
    bool reclaim_session(const Endpoint& from, std::uint64_t token,
                         std::optional<std::uint64_t> player_id, protocol::SessionSeal& seal,
                         const protocol::Key& client_key);
    // A new session for `from` with these keys, or Denied with the reason.
    void open_session(const Endpoint& from, const net::ConnectResponse& response,
                      const std::string& name, std::optional<std::uint64_t> player_id,
                      std::uint64_t token, protocol::SessionSeal& seal,
                      const protocol::Key& client_key);
    // Whether a ConnectResponse's key opened a session in the cookies'
    // lifetime (a replayed handshake), or too many are remembered to take
    // another (counted as rate_limited); note_client_key() remembers one.
    enum class KeyUse : std::uint8_t { fresh, replayed, full };
    KeyUse check_client_key(const protocol::Key& key);
    void note_client_key(const protocol::Key& key);
    // Chooses the room and slot `session` asks for; false after sending Denied.
    bool place_session(const Endpoint& from, const net::ConnectResponse& response,
                       Session& session);
    // `nonce`: the request's, which the client checks.
    void send_denied(const Endpoint& to, net::DenyReason reason, const std::string& detail,
                     std::uint64_t nonce);
    void send_accepted(Session& session);

    // Sessions (server_sessions.cpp).
    std::uint32_t new_client_id() const;
    Session* find_by_endpoint(const Endpoint& from);
    void expire_sessions();
    void remove_session(std::uint32_t client_id);
    void send_disconnect(Session& session, net::DisconnectReason reason, const std::string& detail);

    // The map transfer (server_map_transfer.cpp) and the status query (server_status.cpp).
    void on_map_request(Session& session, const net::MapRequest& request);
    // The session holds a state, so it has the map: its transfer is over.
    void map_transfer_done(Session& session);
    void send_map_chunks();
    void on_status_request(const Endpoint& from, const net::StatusRequest& request,
                           std::size_t size);

    // Updates out (server_updates.cpp).
    void send_updates();
    void send_full_state(Session& session, const Room& room);

    // Replays on disk (server_replays.cpp).
    // Opens DIR/index.sqlite and brings it in line with the files; logs and
    // goes on without an index when it cannot.
    void open_replay_index();
    // Counts what the replay directory holds and keeps it within its limits (when it has any).
    void start_replay_budget();
    // Keeps the replay directory within its budget (when it has one).
    void keep_replay_budget();
    // Returns once the replays' file work has caught up with the ticks run,
    // and their budget and stats with it.
    void settle_replays();
    // Where the file work runs, once a finished match's replay is closed:
    // its row in the index, and word to the tick (replays_closed_).
    void replay_closed(const MatchSummary& summary, const Status& whole);
    // In the tick: the replays closed since, counted by the budget (or as
    // write errors). True when there were any.
    bool take_closed_replays();

    ServerConfig config_;
    Transport& transport_;
    // Outlives the rooms, whose replays post their last jobs as they go
    // (~Server waits for the jobs that use the rest).
    DiskWork& disk_;
    CookieJar cookies_;
    // The handshake's key pair (crypto_kx), new at every start: its public
    // key goes out in every Challenge.
    protocol::KeyPair server_keys_ = protocol::make_key_pair();
    // The ConnectResponses' keys taken recently (the first 8 bytes of each,
    // random), with the tick: a replayed handshake is refused.
    std::unordered_map<std::uint64_t, std::uint64_t> used_client_keys_;
    // Connect tokens used (by their id) until they expire: the key and the
    // session they opened. Another client's use is refused token_reused.
    struct UsedToken {
        protocol::Key client_key{};
        std::uint32_t client_id = 0;
        std::uint64_t expires_unix_s = 0;
    };
    std::unordered_map<std::uint64_t, UsedToken> used_tokens_;
    protocol::DatagramBuffer sealed_{};  // sealed out
    protocol::DatagramBuffer opened_{};  // opened in
    RefusalLog refusals_;                // refused handshakes, logged per address at a bounded rate
    std::vector<std::unique_ptr<Room>> rooms_;
    std::map<std::uint32_t, Session> sessions_;  // by client id: deterministic order
    // Connected sessions by address (nodes of sessions_, which never move).
    std::unordered_map<Endpoint, Session*, EndpointHash> by_endpoint_;
    // Handshake replies per source IP (port 0) in the current second.
    std::unordered_map<Endpoint, std::uint32_t, EndpointHash> handshake_replies_;
    std::uint64_t handshake_window_tick_ = 0;
    std::uint32_t next_spread_ = 1;  // Session::spread of the next session
    std::uint32_t map_turn_ = 0;     // the session whose map chunks went last
    std::uint64_t tick_ = 0;
    bool shut_down_ = false;
    float last_tick_ms_ = 0.0F;
    Stats stats_;
    std::deque<MatchSummary> finished_;  // bounded: a server runs for months
    std::uint64_t matches_finished_ = 0;
    std::optional<ReplayBudget> replay_budget_;
    // DIR/index.sqlite, when recording: the file work's alone once the server runs.
    std::optional<replay_index::Index> replay_index_;
    struct ClosedReplay {
        std::filesystem::path file;
        Status whole;
    };
    std::mutex closed_mutex_;
    std::vector<ClosedReplay> replays_closed_;              // from the file work to the tick
    std::vector<std::vector<game::Input>> scratch_inputs_;  // per room, per slot
    std::vector<bool> occupied_;                            // per room: someone is in it
    std::vector<std::uint32_t> awake_rooms_;                // ascending: the rooms the tick steps
    protocol::Update update_;                               // scratch: the update being sent
    flatbuffers::FlatBufferBuilder builder_{1024};
};

}  // namespace carom::server
