// The Server's life: construction (config checks, rooms), the tick, the
// shutdown. The rest of its work is in server_*.cpp, one part each.
#include "server.hpp"

#include <spdlog/spdlog.h>

#include <sodium.h>

#include <algorithm>
#include <stdexcept>

#include "carom/game/printable_name.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/protocol/packet.hpp"

namespace carom::server {
namespace {

game::Map load_map(const std::filesystem::path& path) {
    std::vector<std::string> notes;
    auto loaded = maps::load_map_file(path, &notes);
    if (!loaded) throw std::invalid_argument(loaded.error().message);
    // A stadium's fields that play no part: the host should know.
    for (const std::string& note : notes)
        spdlog::info("{}: note: {}", path.string(), note);
    return std::move(*loaded);
}

// Throws std::invalid_argument with the option at fault.
void check_config(const ServerConfig& config) {
    if (config.maps.empty()) throw std::invalid_argument("no map given");
    if (config.rooms == 0) throw std::invalid_argument("--rooms must be at least 1");
    if (config.update_rate_hz == 0 || config.update_rate_hz > game::kTickRate ||
        game::kTickRate % config.update_rate_hz != 0)
        throw std::invalid_argument(
            fmt::format("--update-rate must divide the tick rate ({} Hz)", game::kTickRate));
    if (!(config.final_pause_s >= 0.0 && config.final_pause_s <= 600.0))
        throw std::invalid_argument("--final-pause must be 0..600 seconds");
    if (config.input_redundancy == 0 || config.input_redundancy > protocol::kMaxInputRedundancy)
        throw std::invalid_argument(
            fmt::format("--input-redundancy must be 1..{}", protocol::kMaxInputRedundancy));
    if (config.update_history < 2 || config.update_history > protocol::kMaxUpdateTicks)
        throw std::invalid_argument(
            fmt::format("update history must be 2..{} ticks", protocol::kMaxUpdateTicks));
    if (config.max_sessions_per_ip == 0)
        throw std::invalid_argument("--max-sessions-per-ip must be at least 1");
}

}  // namespace

Server::Server(const ServerConfig& config, Transport& transport, DiskWork& disk, CookieJar cookies,
               std::string run_id)
    : config_(config), transport_(transport), disk_(disk), cookies_(cookies) {
    check_config(config_);
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    if (!config_.replay_dir.empty()) std::filesystem::create_directories(config_.replay_dir);
    if (!(config_.replay_keep_days >= 0.0 && config_.replay_keep_days <= 36500.0))
        throw std::invalid_argument("--replay-keep-days must be 0..36500");
    // Synced before the rooms start their replays, which get rows when they finish.
    if (!config_.replay_dir.empty()) open_replay_index();
    create_rooms(run_id);
    start_replay_budget();
}

Server::~Server() {
    rooms_.clear();  // their replays' last jobs are posted before the file work stops
    disk_.drain();
}

void Server::create_rooms(const std::string& run_id) {
    // Each map is checked and encoded once, however many rooms play it.
    std::vector<std::shared_ptr<const RoomMap>> maps;
    for (const auto& path : config_.maps)
        maps.push_back(std::make_shared<const RoomMap>(load_map(path)));
    for (std::uint32_t r = 0; r < config_.rooms; ++r) {
        RoomOptions o;
        o.index = r;
        o.map = maps[r % maps.size()];
        o.bots = config_.bots;
        o.replay_dir = config_.replay_dir;
        o.run_id = run_id;
        o.seed = config_.seed;
        o.history_ticks = config_.update_history;
        o.final_pause_ticks = static_cast<std::uint32_t>(config_.final_pause_s * game::kTickRate);
        o.stats = &stats_;
        o.replay_work = disk_.file_work();
        o.replay_closed = [this](const MatchSummary& summary, const Status& whole) {
            replay_closed(summary, whole);
        };
        o.step_fault = config_.room_step_fault;
        rooms_.push_back(std::make_unique<Room>(std::move(o)));
        if (config_.run_empty_rooms) wake_room(r);
    }
    // What plays where, a line a map (rooms take the maps in turn).
    const auto step = static_cast<std::uint32_t>(maps.size());
    for (std::uint32_t first = 0; first < step && first < config_.rooms; ++first) {
        const std::uint32_t last = first + (config_.rooms - 1 - first) / step * step;
        const std::uint32_t count = (last - first) / step + 1;
        const std::string rooms = count == 1   ? fmt::format("room {} plays", first)
                                  : count == 2 ? fmt::format("rooms {} and {} play", first, last)
                                               : fmt::format("rooms {}, {} … {} ({} in all) play",
                                                             first, first + step, last, count);
        spdlog::info("{} {}{}", rooms, game::printable_name(maps[first]->map.get().name),
                     config_.run_empty_rooms ? "" : ", each asleep until someone comes in");
    }
}

void Server::wake_room(std::uint32_t r) {
    rooms_.at(r)->wake(tick_);
    const auto at = std::lower_bound(awake_rooms_.begin(), awake_rooms_.end(), r);
    if (at == awake_rooms_.end() || *at != r) awake_rooms_.insert(at, r);
}

std::uint32_t Server::player_count() const {
    return static_cast<std::uint32_t>(
        std::count_if(sessions_.begin(), sessions_.end(),
                      [](const auto& e) { return e.second.slot.has_value(); }));
}

void Server::keep_finished(const MatchSummary& summary) {
    ++matches_finished_;
    finished_.push_back(summary);
    if (finished_.size() > kFinishedKept) finished_.pop_front();
}

void Server::send(const Endpoint& to, std::span<const std::uint8_t> bytes) {
    ++stats_.packets_out;
    stats_.bytes_out += bytes.size();
    transport_.send(to, bytes);
}

void Server::send_sealed(Session& s, std::span<const std::uint8_t> bytes) {
    if (!s.seal) return;
    const std::span<const std::uint8_t> sealed = s.seal->seal(bytes, sealed_);
    if (!sealed.empty()) send(s.endpoint, sealed);
}

void Server::tick() {
    if (shut_down_) return;
    ++tick_;
    ++stats_.ticks;
    expire_sessions();

    // One pass over the sessions gathers every room's inputs (not a pass
    // per room), and the rooms someone is in (a player, an away player or a
    // spectator): the others sleep, unless the host runs empty rooms. A
    // session's room is awake: placing it woke the room.
    occupied_.assign(rooms_.size(), config_.run_empty_rooms);
    scratch_inputs_.resize(rooms_.size());
    for (const std::uint32_t r : awake_rooms_)
        scratch_inputs_[r].assign(rooms_[r]->slot_count(), game::Input{});
    for (auto& [id, s] : sessions_) {
        occupied_[s.room] = true;
        if (!s.slot) continue;
        const std::uint64_t repeated_before = s.inputs.repeated();
        const game::Input in = s.inputs.next();
        stats_.inputs_repeated += s.inputs.repeated() - repeated_before;
        if (s.connected) scratch_inputs_[s.room][*s.slot] = in;
        s.applied[tick_ % s.applied.size()] = {tick_, s.inputs.last_applied_sequence()};
    }

    // Only the awake rooms are visited: a sleeping one costs the tick nothing.
    std::erase_if(awake_rooms_, [&](std::uint32_t r) {
        Room& room = *rooms_[r];
        if (!occupied_[r]) {
            if (auto summary = room.sleep()) keep_finished(*summary);
            return true;
        }
        room.step(scratch_inputs_[r], tick_);
        if (auto summary = room.restart_if_finished()) {
            keep_finished(*summary);
            for (auto& [id, s] : sessions_)
                if (s.room == r) s.inputs.hold_idle();
        }
        return false;
    });

    // The budget is kept when a match's replay is closed (by the file work,
    // this tick's closes too when it ran at once), and once a second for the
    // age limit and the replays growing meanwhile.
    if (take_closed_replays() || tick_ % game::kTickRate == 0) keep_replay_budget();
    send_updates();
    send_map_chunks();
}

void Server::settle_replays() {
    disk_.drain();
    for (auto& room : rooms_)
        room->check_recording();
    take_closed_replays();
    keep_replay_budget();
    disk_.drain();  // the index's rows of the files the budget removed
}

std::vector<MatchSummary> Server::shutdown() {
    std::vector<MatchSummary> out;
    if (shut_down_) return out;
    for (auto& [id, s] : sessions_)
        if (s.connected) send_disconnect(s, net::DisconnectReason::server_shutdown, "");
    for (auto& room : rooms_)
        if (auto summary = room->finish()) out.push_back(*summary);
    for (const MatchSummary& s : out)
        keep_finished(s);
    settle_replays();
    shut_down_ = true;
    return out;
}

}  // namespace carom::server
