#pragma once
// The client side of the wire protocol (schemas/net.fbs) as a state machine:
// no sockets and no clocks. Time comes in as `now_ms` on every call, datagrams
// arrive through on_datagram() and leave through the `send` function, so the
// same object runs over a real UDP socket, a simulated link or a test.
//
// Lifecycle: connect() → connecting (ConnectRequest, then ConnectResponse
// once a Challenge arrives, resent every retry interval) → connected
// (Accepted) → closed (denied, timeout, server Disconnect, or disconnect()).
// Every reply in the handshake must answer this attempt: Challenge and
// Denied echo its random nonce, Accepted comes sealed with the keys agreed
// with its fresh key pair; anything else is dropped and counted (unasked).
// From Accepted on, every datagram both ways is sealed (protocol::SessionSeal).
// Call update() regularly: it resends, times out and keeps the link alive.
//
// Once connected it needs the room's map: given a MapStore, it takes the map
// Accepted names from the store, or else fetches it from the server and
// leaves it there; without one, the caller hands it over (set_map) or has it
// fetched (fetch_map). Either way take_map_ready() says once when the map is
// here. The connection keeps an exact copy of the room's match (Replica) on
// that one checked map, restored from a FullState and stepped with each
// ServerUpdate's inputs, and acknowledges the newest tick it holds in every
// ClientUpdate.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "carom/client/connection_stats.hpp"
#include "carom/client/map_store.hpp"
#include "carom/client/replica.hpp"
#include "carom/client/send_policy.hpp"
#include "carom/game/input.hpp"
#include "carom/protocol/connect_token.hpp"
#include "carom/protocol/full_state.hpp"
#include "carom/protocol/map_transfer.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/seal.hpp"

namespace carom::client {

struct ConnectionConfig {
    std::string name = "player";
    std::int32_t room = -1;  // -1: the first room with space
    bool spectator = false;
    // Random per client, chosen by the caller: the same token reclaims a
    // slot. It travels sealed (the hello of ConnectResponse).
    std::uint64_t token = 0;
    // A connect token (protocol::make_connect_token's bytes) for a server
    // started with --token-key: its private part goes in ConnectResponse,
    // its keys are mixed into the session's. Empty: none.
    std::vector<std::uint8_t> connect_token;
    std::uint64_t connect_retry_ms = 250;
    std::uint64_t connect_timeout_ms = 5000;
    std::uint64_t timeout_ms = 5000;    // nothing heard for this long once connected
    std::uint64_t keepalive_ms = 1000;  // KeepAlive when nothing was sent for this long
    // Held ticks the copy keeps for drawing the past (Replica::history());
    // 0 for a client that draws nothing.
    std::size_t history_ticks = Replica::kHistoryTicks;
    SendPolicyConfig send;  // when send_input() sends
    protocol::MapDownload::Config map_download;
};

// What the server told us in Accepted: the session's terms.
struct Admission {
    std::uint32_t client_id = 0;
    std::uint32_t room = 0;
    std::int32_t slot = -1;  // -1: a spectator
    std::uint8_t team = 0;   // 0 left, 1 right
    std::uint32_t tick_rate_hz = 60;
    std::uint32_t update_rate_hz = 60;
    std::string map_name;
    std::uint64_t map_hash = 0;
    std::uint32_t map_bytes = 0;  // the size of the map's binary (fetch_map)
    std::uint32_t slots = 0;      // player slots of the room's match
    std::uint32_t team_size = 0;
    std::uint64_t seed = 0;
    std::uint32_t input_redundancy = protocol::kDefaultInputRedundancy;
};

// The room's current match.
struct MatchInfo {
    std::uint64_t seed = 0;
    std::uint64_t start_tick = 0;  // the server tick of the match's tick 0
    friend bool operator==(const MatchInfo&, const MatchInfo&) = default;
};

// The room's map is here: Connection::map() holds it from now on.
struct MapReady {
    std::string source;        // the store's (a file), "the server" (fetched), or "given"
    std::string keep_problem;  // why the store could not keep a fetched map (play goes on)
};

enum class State : std::uint8_t { idle, connecting, connected, closed };
enum class CloseReason : std::uint8_t {
    none,
    denied,             // see deny_reason(), deny_detail()
    connect_timeout,    // no Accepted within connect_timeout_ms
    timeout,            // nothing heard for timeout_ms
    server_disconnect,  // see server_disconnect_reason(), close_detail()
    quit,               // disconnect() was called
    bad_map,            // the map fetched from the server was refused: see close_detail()
};
std::string_view to_string(State state);
std::string_view to_string(CloseReason reason);

class Connection {
  public:
    using SendFn = std::function<void(std::span<const std::uint8_t>)>;

    // How far past the client's clock a sealed update may reach: the ticks
    // of this many ms beyond those elapsed since the newest state taken.
    static constexpr std::uint64_t kAheadOfClockMs = 1000;

    // `maps`, when given, must outlive the connection.
    Connection(ConnectionConfig config, SendFn send, MapStore* maps = nullptr);

    // Starts (or restarts, keeping the token) the handshake: sends a padded ConnectRequest.
    void connect(std::uint64_t now_ms);
    // Retries, timeouts and keep-alives; call at least every few tens of ms.
    void update(std::uint64_t now_ms);
    // One received datagram, any bytes at all: verified first, anything
    // invalid or unexpected is dropped and counted in stats().
    void on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);
    // Once connected, for a caller without a MapStore: the room's map
    // (Accepted names it; the caller checks its hash). Until then updates
    // cannot be read, and none is acknowledged. The error when the map is
    // not playable (nothing is set).
    Status set_map(game::Map map);
    void set_map(game::CheckedMap map);
    // Once per client tick while connected (ignored otherwise): the input gets
    // the next sequence number. It goes out when it changed (and on the next
    // ticks again, config.send), with those of its run the server has not yet
    // shown it applied (at most input_redundancy); an input that did not change
    // stays here (the server repeats the last it applied) unless an
    // acknowledgement is due (SendPolicy). A spectator's ClientUpdate carries
    // no inputs, only the acknowledgement.
    void send_input(game::Input input, std::uint64_t now_ms);
    // Once connected, when no map of Accepted.map_hash is at hand (done
    // on Accepted when the store has none): asks the server for the map's
    // chunks (MapRequest, paced by update()) until every one came; the bytes
    // must hash to map_hash and decode to a map that passes every check of a
    // map file, once, and then it is set as by set_map() and left in the
    // store. Else the connection closes (bad_map, the reason in
    // close_detail()). A transfer cut by a reconnect to a room of the same
    // map resumes where it was.
    void fetch_map(std::uint64_t now_ms);
    // The transfer under way or done (null before fetch_map()).
    const protocol::MapDownload* map_download() const { return download_ ? &*download_ : nullptr; }
    // Once per map set (found, fetched or given): what a host reacts to.
    std::optional<MapReady> take_map_ready() { return std::exchange(map_ready_, std::nullopt); }
    // The room's map, checked once: the replica's, shared with whoever
    // plays on it (null before it is here).
    const game::CheckedMap* map() const { return replica_ ? &replica_->checked_map() : nullptr; }
    // Sends Disconnect(quit) when connecting or connected, then closes.
    void disconnect(std::uint64_t now_ms);

    State state() const { return state_; }
    CloseReason close_reason() const { return close_reason_; }
    const Admission& admission() const { return admission_; }  // meaningful once connected
    net::DenyReason deny_reason() const { return deny_reason_; }
    net::DisconnectReason server_disconnect_reason() const { return disconnect_reason_; }
    // The detail string of Denied or of the server's Disconnect.
    const std::string& close_detail() const { return close_detail_; }

    // The client's exact copy of the room's match: null before the map is here;
    // its holds() says whether it has a state yet (after a resync, its last
    // one is gone until the next FullState).
    const Replica* replica() const { return replica_ ? &*replica_ : nullptr; }
    // The events of the steps since the last call, oldest first.
    std::vector<ServerEvent> take_events() { return std::exchange(events_, {}); }
    // The room's current match (nullopt before the first state).
    const std::optional<MatchInfo>& match_info() const { return match_info_; }
    // The newest input sequence the server applied for us (0: none yet).
    std::uint32_t last_input_sequence() const { return last_input_sequence_; }
    // The sequence of the client's input the server's state at the held tick
    // stepped last: the newest it applied, then one more for each tick since
    // that it repeated that input because nothing newer had come, as long as
    // the client had not sent those ticks' inputs (they were the same). What a
    // predictor replays its inputs after.
    std::uint32_t applied_through() const;
    // The newest input sequence sent (0: none yet), and whether one of the
    // last 256 sequences went out (or stayed here: its input did not change).
    std::uint32_t newest_sent_sequence() const { return run_end_; }
    bool sent(std::uint32_t sequence) const { return sent_[sequence % kSentRing] == sequence; }
    // The sequence number the next send_input() will use (starts at 1).
    std::uint32_t next_sequence() const { return next_sequence_; }
    float server_tick_ms() const { return server_tick_ms_; }

    const ConnectionStats& stats() const { return stats_; }

    // For a tool that writes its own datagrams of the session (a load test's
    // abuse): `datagram` sealed with the session's keys, as the connection
    // sends its own; empty before the keys are agreed.
    std::span<const std::uint8_t> seal(std::span<const std::uint8_t> datagram) {
        return seal_ ? seal_->seal(datagram, sealed_) : std::span<const std::uint8_t>{};
    }
    // The session's keys and replay window (null before a Challenge): for a
    // tool that reads what the server sends it (a copy opens a datagram
    // without taking its sequence).
    const protocol::SessionSeal* session_seal() const { return seal_ ? &*seal_ : nullptr; }

  private:
    // When an acknowledgement was first sent: an update built on it arrives
    // one round trip later.
    struct SentAck {
        std::uint64_t tick = 0;
        std::uint64_t sent_ms = 0;
        bool answered = false;
    };
    static constexpr std::size_t kAckRing = 256;
    static constexpr std::size_t kSentRing = 256;
    static constexpr std::size_t kMaxEventsHeld = 64;
    // Updates in a row a spectator could not step before it drops its copy.
    static constexpr std::uint32_t kSpectatorNotHeldRun = 3;

    void send_connect_request(std::uint64_t now_ms);
    void send_connect_response(std::uint64_t now_ms);
    void send_keepalive(std::uint64_t now_ms);
    // A datagram of the session: sealed, or not sent before the keys are agreed.
    void transmit(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);
    // A datagram of the handshake, in the clear.
    void transmit_clear(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);
    void close(CloseReason reason);
    void note_ack_sent(std::uint64_t tick, std::uint64_t now_ms);
    void note_round_trip(std::uint64_t baseline, std::uint64_t now_ms);

    // `sealed`: it came sealed with the session's keys.
    void on_packet(const net::Packet& packet, std::size_t bytes, std::uint64_t now_ms, bool sealed);
    void on_sealed(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);
    // False (counted) when the server's key is refused.
    bool on_challenge(const net::Challenge& challenge, std::uint64_t now_ms);
    void on_accepted(const net::Accepted& accepted, std::uint64_t now_ms);
    void use_map(game::CheckedMap map, MapReady ready);
    void on_denied(const net::Denied& denied);
    void on_full_state(const net::FullState& part, std::size_t bytes, std::uint64_t now_ms);
    void on_update(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);
    // The newest server tick an update may bring now: the newest state taken
    // plus the ticks elapsed since, plus kAheadOfClockMs of them.
    std::uint64_t newest_tick_allowed(std::uint64_t now_ms) const;
    void on_disconnect(const net::Disconnect& disconnect);
    void on_map_chunk(const net::MapChunk& chunk, std::uint64_t now_ms);
    void request_map_chunks(std::uint64_t now_ms);
    // After the copy took a new state: the events, the match, the inputs still to send.
    void on_new_state(std::size_t bytes, std::uint64_t now_ms);

    ConnectionConfig config_;
    SendFn send_;
    MapStore* maps_;
    flatbuffers::FlatBufferBuilder builder_{1024};
    // Receive buffers are not always 8-byte aligned; FlatBuffers wants them to be.
    std::array<std::uint64_t, protocol::kMaxDatagramBytes / 8 + 1> aligned_{};

    State state_ = State::idle;
    CloseReason close_reason_ = CloseReason::none;
    net::DenyReason deny_reason_ = net::DenyReason::server_full;
    net::DisconnectReason disconnect_reason_ = net::DisconnectReason::quit;
    std::string close_detail_;

    std::uint64_t connect_started_ms_ = 0;
    std::uint64_t last_attempt_ms_ = 0;
    std::uint64_t last_heard_ms_ = 0;
    std::uint64_t last_sent_ms_ = 0;
    std::optional<std::uint64_t> cookie_;
    Admission admission_;
    // This attempt's: the nonce its replies echo, its key pair, and the
    // session's seal once a Challenge gave the server's key.
    std::uint64_t nonce_ = 0;
    protocol::KeyPair key_pair_;
    std::optional<protocol::SessionSeal> seal_;
    std::vector<std::uint8_t> server_key_;  // the Challenge's the keys came from
    // config_.connect_token as read (nullopt: none, or not a token: the
    // server then refuses token_required).
    std::optional<protocol::ConnectToken> connect_token_;
    protocol::DatagramBuffer sealed_{};  // sealed out
    protocol::DatagramBuffer opened_{};  // opened in

    // The run of inputs sent on consecutive ticks, up to `run_end_`, not yet
    // shown applied: newest last, at most kMaxInputRedundancy.
    std::vector<game::Input> unapplied_;
    std::uint32_t run_end_ = 0;
    bool cushioned_ = false;      // unapplied_'s first is the cushion (SendPolicyConfig::cushion)
    game::Input previous_input_;  // the last send_input()'s
    std::uint32_t next_sequence_ = 1;
    SendPolicy policy_;
    // Per recent sequence: itself when its input was sent (else another value).
    std::array<std::uint32_t, kSentRing> sent_{};
    // The server tick the newest input shown applied was applied on.
    std::uint64_t input_tick_ = 0;
    std::array<SentAck, kAckRing> acks_{};

    std::optional<protocol::MapDownload> download_;
    bool fetching_ = false;  // asked to fetch the map of this session's Accepted
    // The map came: the server is told (an empty MapRequest, every 100 ms
    // until a state comes), so that it sends the FullState at once.
    bool announce_map_ = false;
    std::optional<std::uint64_t> announced_ms_;
    std::optional<MapReady> map_ready_;
    // The Accepted map hash of the map taken from the store or fetched.
    std::optional<std::uint64_t> stored_hash_;
    std::optional<Replica> replica_;
    protocol::FullStateAssembly assembly_;
    // The newest state taken and when: the clock that bounds an update's tick.
    std::uint64_t taken_tick_ = 0;
    std::uint64_t taken_ms_ = 0;
    std::vector<ServerEvent> events_;  // at most kMaxEventsHeld, the newest
    std::optional<MatchInfo> match_info_;
    std::uint32_t last_input_sequence_ = 0;
    std::uint32_t not_held_run_ = 0;  // a spectator's updates in a row not stepped
    float server_tick_ms_ = 0.0F;

    ConnectionStats stats_;
};

}  // namespace carom::client
