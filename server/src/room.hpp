#pragma once
// One match being played: its slots (empty, a bot or a client), the match
// it owns, the recorder that watches it when the server records, and the
// history of its recent ticks that updates bring clients along with. When a
// match ends the room records its footer and starts the next one with the
// same occupants.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/protocol/full_state.hpp"
#include "carom/replay/recorder.hpp"
#include "carom/replay_index/index.hpp"
#include "stats.hpp"
#include "tick_history.hpp"

namespace carom::server {

// A map as rooms play it and send it: checked once and encoded once, shared
// by every room that plays it.
struct RoomMap {
    // Throws std::invalid_argument with the reason when the map is not playable.
    explicit RoomMap(game::Map playable);
    game::CheckedMap map;
    std::vector<std::uint8_t> bytes;  // the binary MapChunks carry
    std::uint64_t hash = 0;           // of `bytes` (Accepted.map_hash)
};

// What the status reply says of a room's match, awake or asleep.
struct Scoreboard {
    std::array<std::uint32_t, 2> score{};
    std::uint64_t ticks_left = 0;
    game::Phase phase = game::Phase::playing;
};

// How a finished (or shut down) match ended, for the log and the tests.
struct MatchSummary {
    std::uint32_t room = 0;
    std::uint32_t match_number = 0;
    std::filesystem::path replay;  // empty when not recorded
    replay::Footer footer;
    // The replay index's row, from what the recorder wrote (with `replay`),
    // made once the file is closed: only in RoomOptions::replay_closed.
    std::optional<replay_index::MatchRow> index_row;
};

struct RoomOptions {
    std::uint32_t index = 0;
    std::shared_ptr<const RoomMap> map;
    bool bots = false;
    std::filesystem::path replay_dir;  // empty: not recorded
    // Names replay files room<i>-<run_id>-<tag>-m<match>.crpl, where <tag> is
    // random per Room: two servers started in the same second (same run id)
    // on one directory never pick the same name, and files are created
    // exclusively, so none is ever written over.
    std::string run_id;
    std::uint64_t seed = 1;
    std::uint32_t history_ticks = 64;  // the oldest baseline an update starts from
    // The final whistle: server ticks a finished match stays on the wire
    // (frozen, phase finished) before the next one starts.
    std::uint32_t final_pause_ticks = 0;
    // Where the replays' file work runs (DiskWork); empty: in the tick.
    replay::FileWork replay_work;
    // Told, where the file work runs, when a finished match's replay is
    // closed: the match's summary, and the write error if the file is not whole.
    std::function<void(const MatchSummary&, const Status& whole)> replay_closed;
    // Where the room counts its faults (replay_write_errors, rooms_failed); may be null.
    Stats* stats = nullptr;
    // Tests only: called before each step with (room, match tick about to run).
    std::function<void(std::uint32_t, std::uint64_t)> step_fault;
};

// A room nobody is in sleeps (the server decides when): its match neither
// steps nor hashes, and it holds its match as a saved state, not as a world
// with its scratch, nor a tick history. Woken, it resumes the match where it
// stopped, or starts the next one if the match had ended; what a joiner
// receives is the same either way.
//
// One room's problem is never the process's. A replay that cannot be
// created or written stops recording (logged, counted in
// Stats::replay_write_errors): the match goes on unrecorded and the next
// match tries to record again. An exception in a step pauses the room for
// good (logged, counted in Stats::rooms_failed): its match stays frozen on
// the wire, its replay keeps every tick before the fault and no footer, and
// the other rooms play on.
class Room {
  public:
    static constexpr std::uint32_t kNoClient = 0;

    // The room starts asleep: no match until it is woken.
    explicit Room(RoomOptions options);
    ~Room();

    std::uint32_t index() const { return options_.index; }
    const game::Map& map() const { return options_.map->map.get(); }
    // The map's binary as MapChunks carry it, and its hash (Accepted.map_hash).
    std::span<const std::uint8_t> map_bytes() const { return options_.map->bytes; }
    std::uint64_t map_hash() const { return options_.map->hash; }
    std::uint32_t slot_count() const { return 2 * map().team_size; }
    // Awake only (std::logic_error otherwise).
    const game::Match& match() const;
    Scoreboard scoreboard() const;

    bool asleep() const { return !match_.has_value(); }
    // Before anyone is placed in a sleeping room (`server_tick`: the newest
    // tick the server ran): the room resumes its match, or starts one.
    void wake(std::uint64_t server_tick);
    // Nobody is in the room: it stops where it is. A finished match is
    // closed now (its summary), a match under way kept for the next wake
    // (its replay flushed). A room paused by a fault stays as it is.
    std::optional<MatchSummary> sleep();
    std::uint64_t seed() const { return seed_; }
    std::uint32_t match_number() const { return match_number_; }
    // An exception in a step paused the room for good.
    bool failed() const { return failed_; }
    // The server tick of the current match's tick 0.
    std::uint64_t match_start_tick() const { return match_start_tick_; }

    // Awake only: a slot a client can take now (a free one, or one a bot
    // gives up); nullopt when every slot holds a client.
    std::optional<game::Slot> slot_for_client() const;
    std::uint32_t clients() const;
    // Slots the room plays with its bots.
    std::uint32_t bots() const;
    // Between ticks: a client takes the slot (replacing a bot in it).
    void seat_client(game::Slot slot, std::uint32_t client_id, const std::string& name);
    // The client's slot goes to a bot (when the room has bots) or empties.
    void unseat_client(game::Slot slot);

    // One tick. `inputs` has one input per slot, the clients' filled in by
    // the caller; the room writes its bots' decisions and idle for empty
    // slots over the rest, and steps the match with it. Returns the events of
    // the tick, stamped with `server_tick` (the wire speaks server ticks). A
    // finished match is not stepped: it is shown, frozen, for the final pause.
    std::span<const game::MatchEvent> step(std::span<game::Input> inputs,
                                           std::uint64_t server_tick);
    // The match ended and its final pause is over: finish its replay, start
    // the next. The summary of the old one.
    std::optional<MatchSummary> restart_if_finished();
    // Footer and close (server shutdown).
    std::optional<MatchSummary> finish();
    // The replay's file work ran into a write error: recording stops now,
    // not at the next chunk.
    void check_recording();
    // The replay being written (empty when none), and its bytes so far.
    const std::filesystem::path& recording() const { return replay_path_; }
    std::uint64_t recording_bytes() const { return recorder_ ? recorder_->bytes_written() : 0; }

    // What the match did over its recent ticks, for updates.
    const TickHistory& history() const { return history_; }
    // The match's state hash (computed once until the match changes).
    std::uint64_t state_hash() const;
    // The match as a FullState carries it (the server tick of the newest
    // step; the last input sequence is the receiver's, left 0 here).
    protocol::RoomState state() const;
    // The first server tick the room did not step (a fault paused it); 0: it steps.
    std::uint64_t halted_since() const { return halted_since_; }

  private:
    struct Occupant {
        std::uint32_t client_id = kNoClient;
        bool bot = false;
        std::string name;
    };
    void start_match();
    // The parked match as a game::Match again.
    void revive();
    void join(game::Slot slot, const std::string& name, bool bot);
    void leave(game::Slot slot);
    // The inputs the step about to run applies that differ from what each slot holds.
    void note_input_changes(std::span<const game::Input> inputs);
    MatchSummary close_match();
    // The recorder could not write: the match goes on unrecorded.
    void stop_recording(const Error& error);
    void fail(const char* what);

    RoomOptions options_;
    std::vector<Occupant> occupants_;  // per slot
    std::uint32_t match_number_ = 0;
    std::uint64_t seed_ = 0;
    std::uint32_t next_bot_ = 0;
    std::optional<game::Match> match_;               // while awake
    std::optional<game::MatchState> parked_;         // asleep: the match under way, if any
    std::optional<replay::MatchRecorder> recorder_;  // while the match is recorded
    std::filesystem::path replay_path_;
    std::vector<game::MatchEvent> events_;  // of the last step, in server ticks
    std::uint32_t final_pause_done_ = 0;    // ticks the finished match has been shown
    TickHistory history_;
    std::vector<protocol::InputChange> changes_;  // scratch: of the step under way
    mutable std::optional<std::uint64_t> hash_;   // state_hash() until the match changes
    std::uint64_t halted_since_ = 0;
    std::uint64_t server_tick_ = 0;  // of the last step
    std::uint64_t match_start_tick_ = 0;
    std::uint32_t file_tag_ = 0;  // random: replay names unique to this room object
    bool failed_ = false;
};

}  // namespace carom::server
