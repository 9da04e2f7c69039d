#include "carom/play/session.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "carom/client/chase_bot.hpp"
#include "carom/client/map_lookup.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/protocol/map_codec.hpp"

namespace carom::play {
namespace {

// Exit codes of carom-client (its --help lists them).
constexpr int kExitUnreachable = 3;
constexpr int kExitRefused = 4;
constexpr int kExitLost = 5;
constexpr int kExitMap = 6;

// "kick-off" stays on the HUD this long after the whistle.
constexpr std::uint64_t kKickoffShownTicks = game::kTickRate;

std::string deny_message(net::DenyReason reason, const std::string& detail) {
    std::string m;
    switch (reason) {
        case net::DenyReason::server_full:
            m = "the server is full";
            break;
        case net::DenyReason::room_full:
            m = "the room is full";
            break;
        case net::DenyReason::version_mismatch:
            m = "version mismatch: the server speaks another protocol version (ours is " +
                std::to_string(protocol::kProtocolVersion) + ")";
            break;
        case net::DenyReason::bad_cookie:
            m = "the handshake failed (bad cookie)";
            break;
        case net::DenyReason::banned_name:
            m = "that name is not allowed";
            break;
        case net::DenyReason::no_such_room:
            m = "no such room";
            break;
        case net::DenyReason::shutting_down:
            m = "the server is shutting down";
            break;
        default:
            m = "refused";
    }
    return detail.empty() ? m : m + " (" + detail + ")";
}

}  // namespace

Session::Session(SessionConfig config, client::Connection::SendFn send)
    : config_(std::move(config)),
      connection_(config_.connection, std::move(send)),
      keys_(config_.keys) {}

void Session::on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    connection_.on_datagram(bytes, now_ms);
    if (!accepted_ && connection_.state() == client::State::connected) on_accepted();
    const client::Frame* frame = connection_.latest_frame();
    const std::optional<client::MatchInfo>& info = connection_.match_info();
    if (map_ && info && info != match_) on_new_match(*info);
    for (const client::ReceivedEvent& e : connection_.take_events()) {
        // Events of an earlier match (a late snapshot's) are not this one's.
        if (match_ && e.tick <= match_->start_tick) continue;
        if (e.kind == game::MatchEvent::Kind::goal) goal_ = e;
        if (e.kind == game::MatchEvent::Kind::kickoff) kickoff_tick_ = e.tick;
    }
    if (frame != nullptr && frame->tick != newest_tick_) {
        newest_tick_ = frame->tick;
        on_new_frame(*frame, now_ms);
    }
}

void Session::on_accepted() {
    accepted_ = true;
    const client::Session& s = connection_.session();
    auto found = client::find_map(s.map_name, config_.map_dirs);
    if (!found) {
        map_problem_ = game::printable_name(found.error().message, 200);
        return;
    }
    game::Map map = std::move(*found);
    if (protocol::map_hash(map) != s.map_hash) {
        map_problem_ = "map '" + game::printable_name(s.map_name) +
                       "' differs from the server's (another version?)";
        return;
    }
    try {
        rules_ = std::make_unique<game::Match>(map, s.seed);
        if (s.slot >= 0 && static_cast<std::uint32_t>(s.slot) >= rules_->slot_count())
            throw std::invalid_argument("the server gave slot " + std::to_string(s.slot));
    } catch (const std::exception& e) {
        map_problem_ = "map '" + game::printable_name(s.map_name) +
                       "': " + game::printable_name(e.what(), 200);
        return;
    }
    connection_.set_map(map);
    if (s.slot >= 0)
        predictor_ =
            std::make_unique<Predictor>(map, static_cast<game::Slot>(s.slot), config_.prediction);
    InterpolatorConfig ic;
    const std::uint32_t tick_hz = std::max<std::uint32_t>(s.tick_rate_hz, 1);
    ic.tick_ms = 1000.0 / tick_hz;
    ic.snapshot_interval_ms = 1000.0 / std::clamp<std::uint32_t>(s.snapshot_rate_hz, 1, tick_hz);
    interpolator_ = std::make_unique<Interpolator>(ic);
    map_ = std::move(map);
}

void Session::on_new_match(const client::MatchInfo& info) {
    // A new match of the room: its kick-off and goals start afresh.
    match_ = info;
    kickoff_tick_ = info.start_tick;
    goal_.reset();
}

void Session::send(game::Input input, std::uint64_t now_ms) {
    const std::uint32_t sequence = connection_.next_sequence();
    connection_.send_input(input, now_ms);
    if (predictor_) predictor_->apply_input(sequence, input);
}

game::Team Session::team_of(game::Slot slot) const {
    // The roster says each slot's team; before one arrives, the rule it follows.
    for (const client::RosterEntry& r : connection_.roster())
        if (r.slot == slot) return r.team;
    return rules_->team_of(slot);
}

std::string Session::name_of(std::int32_t slot) const {
    for (const client::RosterEntry& r : connection_.roster())
        if (static_cast<std::int32_t>(r.slot) == slot && !r.name.empty())
            return game::printable_name(r.name);
    return "slot " + std::to_string(slot);
}

std::string Session::banner(const client::Frame& f) const {
    const auto score = std::to_string(f.score[0]) + "-" + std::to_string(f.score[1]);
    if (f.phase == game::Phase::finished) {
        if (f.score[0] == f.score[1]) return "FINAL " + score + " DRAW";
        return "FINAL " + score + (f.score[0] > f.score[1] ? " left wins" : " right wins");
    }
    if (f.phase != game::Phase::goal_pause) return "";
    // The goal of this pause, if its event arrived (it rides one snapshot).
    if (!goal_ || goal_->tick > f.tick || goal_->tick + game::kGoalPauseTicks < f.tick)
        return "GOAL!";
    if (goal_->scorer) return "GOAL! " + name_of(static_cast<std::int32_t>(*goal_->scorer));
    if (goal_->own_goal_by)
        return "GOAL! own goal by " + name_of(static_cast<std::int32_t>(*goal_->own_goal_by));
    return goal_->team == game::Team::left ? "GOAL! left" : "GOAL! right";
}

void Session::on_new_frame(const client::Frame& frame, std::uint64_t now_ms) {
    if (!map_) return;
    if (!client::disk_layout_of(*rules_).fits(frame)) {
        ++frames_rejected_;
        return;
    }
    interpolator_->on_frame(frame, static_cast<double>(now_ms));
    if (predictor_ && connection_.replica() != nullptr)
        predictor_->on_state(connection_.replica()->match(), connection_.last_input_sequence());
}

game::Input Session::next_input(std::uint64_t now_ms) const {
    if (!config_.bot) return keys_.input(now_ms);
    const client::Frame* frame = connection_.latest_frame();
    const std::int32_t slot = connection_.session().slot;
    if (!map_ || frame == nullptr || slot < 0 || !client::disk_layout_of(*rules_).fits(*frame))
        return game::Input::idle();
    const auto s = static_cast<game::Slot>(slot);
    return client::chase_input(*frame, s, rules_->puck_count(),
                               client::opposing_goal(*map_, team_of(s)),
                               client::kick_distance(map_->tuning));
}

void Session::tick(std::uint64_t now_ms) {
    connection_.update(now_ms);
    note_traffic(now_ms);
    if (connection_.state() != client::State::connected || !map_) return;
    const game::Input input = next_input(now_ms);
    if (!cushioned_) {
        // One idle input ahead: the server then holds one in its queue, and a
        // lost packet (its input comes again in the next) does not leave it
        // without one, which would repeat an input and spoil the prediction.
        cushioned_ = true;
        send(game::Input::idle(), now_ms);
    }
    send(input, now_ms);
}

void Session::note_traffic(std::uint64_t now_ms) {
    const client::ConnectionStats& st = connection_.stats();
    traffic_.push_back({now_ms, st.bytes_in, st.bytes_out});
    const auto old = std::find_if(traffic_.begin(), traffic_.end(),
                                  [now_ms](const Traffic& t) { return t.ms + 1000 >= now_ms; });
    traffic_.erase(traffic_.begin(), old);
}

std::optional<Ending> Session::ending() const {
    if (!map_problem_.empty()) return Ending{kExitMap, "cannot play: " + map_problem_};
    if (connection_.state() != client::State::closed) return std::nullopt;
    switch (connection_.close_reason()) {
        case client::CloseReason::connect_timeout:
            return Ending{kExitUnreachable,
                          "server unreachable: no answer within " +
                              std::to_string(config_.connection.connect_timeout_ms / 1000) + " s"};
        case client::CloseReason::denied:
            return Ending{kExitRefused, "refused: " + deny_message(connection_.deny_reason(),
                                                                   connection_.close_detail())};
        case client::CloseReason::timeout:
            return Ending{kExitLost, "connection lost: nothing heard from the server for " +
                                         std::to_string(config_.connection.timeout_ms / 1000) +
                                         " s"};
        case client::CloseReason::server_disconnect: {
            const net::DisconnectReason r = connection_.server_disconnect_reason();
            std::string m = r == net::DisconnectReason::kicked    ? "kicked by the server"
                            : r == net::DisconnectReason::timeout ? "timed out by the server"
                            : r == net::DisconnectReason::server_shutdown
                                ? "the server shut down"
                                : "disconnected by the server";
            if (!connection_.close_detail().empty()) m += " (" + connection_.close_detail() + ")";
            return Ending{r == net::DisconnectReason::server_shutdown ? 0 : kExitLost, m};
        }
        case client::CloseReason::quit:
        case client::CloseReason::none:
            break;
    }
    return Ending{0, "bye"};
}

render::Hud Session::hud(std::uint64_t now_ms) const {
    render::Hud h;
    const client::ConnectionStats& st = connection_.stats();
    const client::Session& s = connection_.session();
    h.tick_rate_hz = s.tick_rate_hz;
    if (!st.rtt_ms.empty()) {
        // The median of the recent pings: one late packet does not make the HUD jump.
        const std::size_t n = std::min<std::size_t>(st.rtt_ms.size(), 31);
        std::vector<double> recent(st.rtt_ms.end() - static_cast<std::ptrdiff_t>(n),
                                   st.rtt_ms.end());
        std::nth_element(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(n / 2),
                         recent.end());
        h.ping_ms = recent[n / 2];
    }
    h.loss = st.loss_estimate();
    if (traffic_.size() >= 2) {
        const Traffic& a = traffic_.front();
        const Traffic& b = traffic_.back();
        const double seconds = std::max<double>(static_cast<double>(b.ms - a.ms), 1.0) / 1000.0;
        h.kb_in_per_s = static_cast<double>(b.bytes_in - a.bytes_in) / 1000.0 / seconds;
        h.kb_out_per_s = static_cast<double>(b.bytes_out - a.bytes_out) / 1000.0 / seconds;
    }
    const client::Frame* f = connection_.latest_frame();
    if (f == nullptr) {
        h.phase = render::Phase::waiting;
        h.note = connection_.state() == client::State::connecting ? "connecting..." : "";
        return h;
    }
    h.server_tick = f->tick;
    h.score = f->score;
    h.ticks_left = f->ticks_left;
    if (f->phase == game::Phase::goal_pause) {
        h.phase = render::Phase::goal;
    } else if (f->phase == game::Phase::finished) {
        h.phase = render::Phase::final;
    } else if (kickoff_tick_ && *kickoff_tick_ <= f->tick &&
               f->tick - *kickoff_tick_ < kKickoffShownTicks) {
        h.phase = render::Phase::kickoff;
    }
    h.banner = banner(*f);
    if (s.slot < 0) {
        h.note = "spectating";
    } else if (rules_) {
        h.note = team_of(static_cast<game::Slot>(s.slot)) == game::Team::left ? "you: left"
                                                                              : "you: right";
    }
    (void)now_ms;
    return h;
}

render::Scene Session::scene(std::uint64_t now_ms, bool show_roster) {
    render::Scene scene;
    scene.hud = hud(now_ms);
    scene.help = config_.connection.spectator
                     ? "Tab roster  q quit  (spectating)"
                     : "WASD/arrows move (two for diagonals)  space kick  Tab roster  q quit";
    disks_.clear();
    roster_.clear();
    const client::Frame* f = connection_.latest_frame();
    if (!map_ || f == nullptr || !interpolator_) return scene;
    scene.map = &*map_;

    const std::vector<game::Vec2>& at = interpolator_->sample(static_cast<double>(now_ms));
    const client::DiskLayout layout = client::disk_layout_of(*rules_);
    const std::int32_t own = connection_.session().slot;
    if (at.size() == layout.size()) {
        for (std::uint32_t i = 0; i < layout.pucks; ++i)
            disks_.push_back({at[i], map_->tuning.puck_radius, render::Ink::puck});
        // Movable discs look like the posts: obstacles, in the walls' ink.
        for (std::uint32_t i = 0; i < layout.discs; ++i)
            disks_.push_back({at[layout.of_disc(i)], map_->discs[i].radius, render::Ink::wall,
                              map_->discs[i].color});
        for (game::Slot s = 0; s < layout.slots; ++s) {
            // Inactive slots are parked off the field: not drawn.
            if (((f->active_mask >> s) & 1U) == 0) continue;
            const bool mine = own >= 0 && s == static_cast<game::Slot>(own);
            const game::Vec2 p = mine && predictor_ && predictor_->ready()
                                     ? predictor_->drawn_position()
                                     : at[layout.of_slot(s)];
            const render::Ink ink = mine                             ? render::Ink::own
                                    : team_of(s) == game::Team::left ? render::Ink::team_left
                                                                     : render::Ink::team_right;
            disks_.push_back({p, map_->tuning.player_radius, ink});
        }
        // Your disk last: drawn over anything it overlaps.
        std::stable_partition(disks_.begin(), disks_.end(),
                              [](const render::DiskView& d) { return d.ink != render::Ink::own; });
    }
    scene.disks = disks_;
    if (show_roster) {
        for (const client::RosterEntry& r : connection_.roster()) {
            if (!r.active || r.slot >= rules_->slot_count()) continue;
            roster_.push_back({game::printable_name(r.name), r.team, r.goals, r.bot,
                               own >= 0 && r.slot == static_cast<std::uint16_t>(own)});
        }
        scene.roster = roster_;
    }
    return scene;
}

}  // namespace carom::play
