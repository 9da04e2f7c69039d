#include "room.hpp"

#include <spdlog/spdlog.h>

#include <random>
#include <stdexcept>

#include "carom/game/bot.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/map_transfer.hpp"

namespace carom::server {
namespace {

// Each match's seed from the server seed, room and match number (splitmix64).
std::uint64_t match_seed(std::uint64_t base, std::uint32_t room, std::uint32_t match) {
    std::uint64_t z = base + 0x9E3779B97F4A7C15ull * (std::uint64_t{room} * 1000003ull + match + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

RoomMap::RoomMap(game::Map playable)
    : map(std::move(playable)),
      bytes(protocol::map_to_binary(map.get())),
      hash(protocol::map_bytes_hash(bytes)) {}

Room::Room(RoomOptions options)
    : options_(std::move(options)),
      history_(options_.history_ticks),
      file_tag_(std::random_device{}()) {
    occupants_.resize(slot_count());
    if (options_.bots)
        for (Occupant& o : occupants_)
            o = {kNoClient, true, fmt::format("bot{}", next_bot_++)};
}

Room::~Room() = default;

const game::Match& Room::match() const {
    if (!match_) throw std::logic_error("room: a sleeping room has no match");
    return *match_;
}

void Room::start_match() {
    ++match_number_;
    seed_ = match_seed(options_.seed, options_.index, match_number_);
    std::vector<game::RosterEntry> players;
    for (game::Slot s = 0; s < occupants_.size(); ++s) {
        const Occupant& o = occupants_[s];
        if (o.bot || o.client_id != kNoClient) players.push_back({s, o.name, o.bot});
    }
    recorder_.reset();
    replay_path_.clear();
    match_.emplace(options_.map->map, seed_);
    for (const game::RosterEntry& p : players)
        match_->join(p.slot, p.name);
    if (!options_.replay_dir.empty()) {
        const auto path =
            options_.replay_dir / fmt::format("room{:02}-{}-{:08x}-m{:04}.crpl", options_.index,
                                              options_.run_id, file_tag_, match_number_);
        // The producer names the carom version, for the index of matches.
        recorder_.emplace(path, *match_, "carom-server " CAROM_VERSION, players,
                          options_.final_pause_ticks, replay::kFormatVersion, options_.replay_work);
        replay_path_ = path;
        if (const Status created = recorder_->write_error(); !created) {
            recorder_.reset();
            replay_path_.clear();
            if (options_.stats) ++options_.stats->replay_write_errors;
            spdlog::error(
                "room {}: match {} is not recorded (it is played all the same; the "
                "next match tries again): {}",
                options_.index, match_number_, created.error().message);
        }
    }
    final_pause_done_ = 0;
    match_start_tick_ = server_tick_;
    hash_.reset();
    history_.note_match_start({server_tick_, seed_, std::move(players)});
    spdlog::info("room {}: match {} on {} (seed {}){}", options_.index, match_number_,
                 game::printable_name(map().name), seed_,
                 replay_path_.empty() ? "" : ", recording " + replay_path_.string());
}

void Room::stop_recording(const Error& error) {
    if (options_.stats) ++options_.stats->replay_write_errors;
    spdlog::error(
        "room {}: match {}: recording stopped at tick {}, the match goes on "
        "unrecorded (the next match tries again): {}",
        options_.index, match_number_, match_->tick(), error.message);
    recorder_.reset();  // the file reads up to its last whole chunk, without a footer
    replay_path_.clear();
}

void Room::fail(const char* what) {
    failed_ = true;
    if (options_.stats) ++options_.stats->rooms_failed;
    spdlog::error(
        "room {}: match {} failed in the step of tick {}: {}; the room is paused, "
        "the other rooms play on",
        options_.index, match_number_, match_->tick() + 1, what);
    if (!recorder_) return;
    // Every tick before the fault, and no footer.
    if (const Status flushed = recorder_->flush(); !flushed)
        spdlog::error("room {}: {}", options_.index, flushed.error().message);
}

std::optional<game::Slot> Room::slot_for_client() const {
    if (auto free = match_->free_slot()) return free;
    for (game::Slot s = 0; s < occupants_.size(); ++s)
        if (occupants_[s].bot) return s;
    return std::nullopt;
}

std::uint32_t Room::clients() const {
    std::uint32_t n = 0;
    for (const Occupant& o : occupants_)
        n += o.client_id != kNoClient ? 1 : 0;
    return n;
}

std::uint32_t Room::bots() const {
    std::uint32_t n = 0;
    for (const Occupant& o : occupants_)
        n += o.client_id == kNoClient && o.bot ? 1 : 0;
    return n;
}

void Room::join(game::Slot slot, const std::string& name, bool bot) {
    if (recorder_) recorder_->joining(*match_, slot, name, bot);
    match_->join(slot, name);
    history_.note_roster({0, slot, true, name, bot});
    hash_.reset();
}

void Room::leave(game::Slot slot) {
    if (recorder_) recorder_->leaving(*match_, slot);
    match_->leave(slot);
    history_.note_roster({0, slot, false, {}, false});
    hash_.reset();
}

void Room::seat_client(game::Slot slot, std::uint32_t client_id, const std::string& name) {
    Occupant& o = occupants_.at(slot);
    if (o.client_id != kNoClient) throw std::logic_error("room: slot holds a client");
    if (match_->active(slot)) leave(slot);  // the bot steps aside
    o = {client_id, false, name};
    join(slot, name, false);
}

void Room::unseat_client(game::Slot slot) {
    Occupant& o = occupants_.at(slot);
    if (o.client_id == kNoClient) throw std::logic_error("room: slot holds no client");
    leave(slot);
    o = {};
    if (options_.bots) {
        o = {kNoClient, true, fmt::format("bot{}", next_bot_++)};
        join(slot, o.name, true);
    }
}

std::span<const game::MatchEvent> Room::step(std::span<game::Input> inputs,
                                             std::uint64_t server_tick) {
    if (!match_) throw std::logic_error("room: a sleeping room does not step");
    server_tick_ = server_tick;
    events_.clear();
    hash_.reset();
    if (failed_ || match_->phase() == game::Phase::finished) {
        if (!failed_) ++final_pause_done_;
        // A finished match's step changes nothing (clients step it all the
        // same); a failed room's does not run at all.
        history_.record(server_tick, {}, !failed_);
        return events_;
    }
    if (inputs.size() != occupants_.size())
        throw std::logic_error("room: step needs one input per slot");
    for (game::Slot s = 0; s < occupants_.size(); ++s) {
        const Occupant& o = occupants_[s];
        if (o.bot) {
            inputs[s] = game::bot_input(*match_, s);
        } else if (o.client_id == kNoClient) {
            inputs[s] = game::Input{};
        }
    }
    note_input_changes(inputs);
    std::span<const game::MatchEvent> events;
    try {
        if (options_.step_fault) options_.step_fault(options_.index, match_->tick() + 1);
        events = match_->step(inputs);
        // A replay that cannot be written is the room's problem: the match
        // has stepped all the same and goes on unrecorded.
        if (recorder_)
            if (const Status recorded = recorder_->stepped(*match_, events); !recorded)
                stop_recording(recorded.error());
    } catch (const std::exception& e) {
        // The step may have stopped half way: no update reaches across this
        // tick, clients get the state as it is, and no later tick steps.
        history_.record(server_tick, {}, false);
        history_.note_replaced();
        halted_since_ = server_tick;
        fail(e.what());
        return events_;
    }
    history_.record(server_tick, changes_, true);
    for (game::MatchEvent e : events) {
        e.tick = server_tick;
        events_.push_back(e);
    }
    return events_;
}

void Room::note_input_changes(std::span<const game::Input> inputs) {
    changes_.clear();
    for (game::Slot s = 0; s < occupants_.size(); ++s) {
        if (!match_->active(s) || inputs[s] == match_->last_input(s)) continue;
        changes_.push_back({0, s, protocol::InputDelta::between(match_->last_input(s), inputs[s])});
    }
}

std::uint64_t Room::state_hash() const {
    if (!hash_) hash_ = match_->state_hash();
    return *hash_;
}

protocol::RoomState Room::state() const {
    protocol::RoomState s;
    s.tick = server_tick_;
    s.state_hash = state_hash();
    s.match_seed = seed_;
    s.match_start_tick = match_start_tick_;
    s.halted_since = halted_since_;
    s.match = match_->save();
    s.bots.reserve(occupants_.size());
    for (const Occupant& o : occupants_)
        s.bots.push_back(o.bot);
    return s;
}

MatchSummary Room::close_match() {
    MatchSummary summary{options_.index, match_number_, replay_path_, {}, {}};
    const game::Match& m = *match_;
    bool finished = false;
    if (recorder_ && !failed_) {
        if (const Result<replay::Footer> footer = recorder_->finish(*match_); footer) {
            summary.footer = *footer;
            finished = true;
        } else {
            if (options_.stats) ++options_.stats->replay_write_errors;
            spdlog::error("room {}: match {}: the replay's end could not be written: {}",
                          options_.index, match_number_, footer.error().message);
        }
    }
    if (!finished) {
        summary.replay.clear();  // no replay with a footer
        summary.footer.final_tick = m.tick();
        summary.footer.final_hash = m.state_hash();
        summary.footer.score = {m.score(game::Team::left), m.score(game::Team::right)};
    } else if (options_.replay_closed) {
        // The index's row is made from the file once it is closed (its size
        // and time), with what the recorder knows of the match.
        recorder_->when_closed([summary, header = recorder_->header(), joins = recorder_->joins(),
                                closed = options_.replay_closed](const Status& whole) {
            MatchSummary closed_match = summary;
            if (whole)
                closed_match.index_row =
                    replay_index::row_of(closed_match.replay, header, joins, closed_match.footer,
                                         closed_match.footer.final_tick);
            closed(closed_match, whole);
        });
    }
    spdlog::info("room {}: match {} over at tick {}, {}-{}, final hash {:016x}{}", options_.index,
                 match_number_, summary.footer.final_tick, summary.footer.score[0],
                 summary.footer.score[1], summary.footer.final_hash,
                 summary.replay.empty() ? "" : ", replay " + summary.replay.string());
    return summary;
}

std::optional<MatchSummary> Room::restart_if_finished() {
    if (failed_ || match_->phase() != game::Phase::finished ||
        final_pause_done_ < options_.final_pause_ticks)
        return std::nullopt;
    MatchSummary summary = close_match();
    start_match();
    return summary;
}

std::optional<MatchSummary> Room::finish() {
    if (!match_) {
        if (!parked_) return std::nullopt;  // no match was ever played, or it was closed
        revive();
    }
    if (recorder_ && recorder_->finished()) return std::nullopt;
    return close_match();
}

void Room::check_recording() {
    if (!recorder_) return;
    if (const Status written = recorder_->write_error(); !written) stop_recording(written.error());
}

void Room::revive() {
    match_.emplace(options_.map->map, seed_);
    match_->restore(*parked_);
    parked_.reset();
}

void Room::wake(std::uint64_t server_tick) {
    if (match_) return;
    server_tick_ = server_tick;
    if (!parked_) {
        // The room's first match, or the next one: the last ended while nobody was here.
        spdlog::info(
            "room {}: someone came in; it wakes and starts match {} ({})", options_.index,
            match_number_ + 1,
            match_number_ == 0 ? "its first" : fmt::format("match {} had ended", match_number_));
        start_match();
        return;
    }
    revive();
    // The match goes on from its tick as if it had started that many ticks ago.
    match_start_tick_ = server_tick - match_->tick();
    hash_.reset();
    spdlog::info(
        "room {}: someone came in; it wakes and resumes match {} at its tick {} (it was "
        "under way when the room emptied)",
        options_.index, match_number_, match_->tick());
}

std::optional<MatchSummary> Room::sleep() {
    if (!match_ || failed_) return std::nullopt;
    std::optional<MatchSummary> ended;
    if (match_->phase() == game::Phase::finished) {
        ended = close_match();
        recorder_.reset();
        replay_path_.clear();
    } else {
        parked_ = match_->save();
        // A crash while the room sleeps loses nothing of it.
        if (recorder_)
            if (const Status flushed = recorder_->flush(); !flushed)
                stop_recording(flushed.error());
    }
    spdlog::info("room {}: nobody is in it; it sleeps{}", options_.index,
                 parked_
                     ? fmt::format(" with match {} at its tick {}", match_number_, match_->tick())
                     : std::string());
    match_.reset();
    // What an awake room keeps for its clients goes; a sleeping room has none.
    history_ = TickHistory(options_.history_ticks);
    events_ = {};
    changes_ = {};
    hash_.reset();
    return ended;
}

Scoreboard Room::scoreboard() const {
    Scoreboard b;
    b.ticks_left = game::ticks_left(map(), 0);
    if (match_) {
        b.score = {match_->score(game::Team::left), match_->score(game::Team::right)};
        b.ticks_left = match_->ticks_left();
        b.phase = match_->phase();
    } else if (parked_) {
        b.score = parked_->score;
        b.ticks_left = game::ticks_left(map(), parked_->tick);
        b.phase = parked_->phase;
    }
    return b;
}

}  // namespace carom::server
