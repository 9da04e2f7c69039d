#include "carom/play/player.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "carom/game/printable_name.hpp"

namespace carom::play {
namespace {

// A player predicts its own disk: its changes go with a tick of cushion.
client::ConnectionConfig cushioned(client::ConnectionConfig config) {
    config.send.cushion = true;
    return config;
}

// Exit codes of carom-client (its --help lists them).
constexpr int kExitUnreachable = 3;
constexpr int kExitRefused = 4;
constexpr int kExitLost = 5;
constexpr int kExitMap = 6;

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
        case net::DenyReason::too_many_from_address:
            m = "too many players from this address";
            break;
        case net::DenyReason::token_required:
            m = "the server admits only players with a connect token";
            break;
        case net::DenyReason::token_invalid:
            m = "the connect token is not valid for this server (another key, or changed)";
            break;
        case net::DenyReason::token_expired:
            m = "the connect token has expired: ask for a new one";
            break;
        case net::DenyReason::token_reused:
            m = "the connect token was used already: ask for a new one";
            break;
        case net::DenyReason::token_wrong_server:
            m = "the connect token is for another server";
            break;
        case net::DenyReason::banned_id:
            m = "this player is banned";
            break;
        default:
            m = "refused";
    }
    return detail.empty() ? m : m + " (" + detail + ")";
}

}  // namespace

Player::Player(PlayerConfig config, client::MapStore& maps, client::Connection::SendFn send)
    : config_(std::move(config)),
      connection_(cushioned(config_.connection), std::move(send), &maps),
      keys_(config_.keys) {}

const game::Match* Player::match() const {
    const client::Replica* r = connection_.replica();
    return r != nullptr && !r->history().empty() ? &r->match() : nullptr;
}

void Player::on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    connection_.on_datagram(bytes, now_ms);
    if (const auto ready = connection_.take_map_ready()) use_map(*ready);
    const std::optional<client::MatchInfo>& info = connection_.match_info();
    if (map_ && info && info != match_info_) on_new_match(*info);
    for (const client::ServerEvent& e : connection_.take_events()) {
        // Events of an earlier match (a late update's) are not this one's.
        if (match_info_ && e.tick <= match_info_->start_tick) continue;
        if (e.kind == game::MatchEvent::Kind::goal) goal_ = e;
        if (e.kind == game::MatchEvent::Kind::kickoff) kickoff_tick_ = e.tick;
    }
    const client::Replica* replica = connection_.replica();
    if (replica != nullptr && replica->holds() && replica->tick() != newest_tick_) {
        newest_tick_ = replica->tick();
        on_new_state(now_ms);
    }
}

void Player::use_map(const client::MapReady& ready) {
    const client::Admission& a = connection_.admission();
    const game::CheckedMap& map = *connection_.map();
    map_source_ = ready.source;
    if (!ready.keep_problem.empty()) cache_problem_ = ready.keep_problem;
    if (a.slot >= 0) {
        const std::size_t slots = 2 * static_cast<std::size_t>(map.get().team_size);
        if (static_cast<std::size_t>(a.slot) >= slots) {
            map_problem_ = "map '" + game::printable_name(a.map_name) + "': slot " +
                           std::to_string(a.slot) + " is not one of its " + std::to_string(slots) +
                           " slots";
            return;
        }
        predictor_ =
            std::make_unique<Predictor>(map, static_cast<game::Slot>(a.slot), config_.prediction);
    }
    InterpolatorConfig ic;
    const std::uint32_t tick_hz = std::max<std::uint32_t>(a.tick_rate_hz, 1);
    ic.tick_ms = 1000.0 / tick_hz;
    ic.update_interval_ms = 1000.0 / std::clamp<std::uint32_t>(a.update_rate_hz, 1, tick_hz);
    interpolator_ = std::make_unique<Interpolator>(ic);
    map_ = map;
}

void Player::on_new_match(const client::MatchInfo& info) {
    // A new match of the room: its kick-off and goals start afresh.
    match_info_ = info;
    kickoff_tick_ = info.start_tick;
    goal_.reset();
}

void Player::send(game::Input input, std::uint64_t now_ms) {
    const std::uint32_t sequence = connection_.next_sequence();
    connection_.send_input(input, now_ms);
    if (predictor_) predictor_->apply_input(sequence, input);
}

std::string Player::banner(const game::Match& m) const {
    // The goal of this pause, if its event arrived (it rides one update).
    const std::uint64_t tick = newest_tick_;
    const bool known = goal_ && goal_->tick <= tick && goal_->tick + game::kGoalPauseTicks >= tick;
    return render::phase_banner(m, known ? &*goal_ : nullptr);
}

void Player::on_new_state(std::uint64_t now_ms) {
    if (!map_) return;
    interpolator_->on_state(newest_tick_, static_cast<double>(now_ms));
    if (predictor_)
        predictor_->on_state(connection_.replica()->match(), connection_.applied_through());
}

game::Input Player::next_input(std::uint64_t now_ms) {
    if (!config_.bot) return steered_ ? *steered_ : keys_.input(now_ms);
    const client::Replica* replica = connection_.replica();
    if (replica == nullptr) return game::Input::idle();
    return bot_.next(*replica, connection_.admission().slot);
}

void Player::tick(std::uint64_t now_ms) {
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

void Player::note_traffic(std::uint64_t now_ms) {
    const client::ConnectionStats& st = connection_.stats();
    traffic_.push_back({now_ms, st.bytes_in, st.bytes_out});
    const auto old = std::find_if(traffic_.begin(), traffic_.end(),
                                  [now_ms](const Traffic& t) { return t.ms + 1000 >= now_ms; });
    traffic_.erase(traffic_.begin(), old);
}

std::optional<Ending> Player::ending() const {
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
        case client::CloseReason::bad_map:
            return Ending{kExitMap, "cannot play: " + connection_.close_detail()};
        case client::CloseReason::quit:
        case client::CloseReason::none:
            break;
    }
    return Ending{0, "bye"};
}

void Player::add_network_figures(render::Hud& h) const {
    const client::ConnectionStats& st = connection_.stats();
    const client::Admission& a = connection_.admission();
    h.tick_rate_hz = a.tick_rate_hz;
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
        const Traffic& first = traffic_.front();
        const Traffic& last = traffic_.back();
        const double seconds =
            std::max<double>(static_cast<double>(last.ms - first.ms), 1.0) / 1000.0;
        h.kb_in_per_s = static_cast<double>(last.bytes_in - first.bytes_in) / 1000.0 / seconds;
        h.kb_out_per_s = static_cast<double>(last.bytes_out - first.bytes_out) / 1000.0 / seconds;
    }
}

render::Scene Player::scene(std::uint64_t now_ms, bool show_roster) {
    const std::string help =
        config_.connection.spectator ? "Tab roster  q quit  (spectating)"
        : config_.keys.releases
            ? "WASD/arrows move  space kick  Tab roster  q quit  keys: press+release"
            : "WASD/arrows move  space kick  Tab roster  q quit  keys: hold window";
    const game::Match* m = match();
    if (!map_ || m == nullptr || !interpolator_) {
        render::Scene waiting;
        add_network_figures(waiting.hud);
        waiting.hud.phase = render::Phase::waiting;
        waiting.hud.note = connection_.state() == client::State::connecting ? "connecting..." : "";
        if (const protocol::MapDownload* d = connection_.map_download(); d != nullptr && !map_)
            waiting.hud.note = fmt::format("downloading map '{}': {}% ({:.1f} of {:.1f} kB)",
                                           game::printable_name(connection_.admission().map_name),
                                           d->size() == 0 ? 0 : d->bytes_held() * 100 / d->size(),
                                           static_cast<double>(d->bytes_held()) / 1000.0,
                                           static_cast<double>(d->size()) / 1000.0);
        waiting.help = help;
        return waiting;
    }
    const client::Replica& replica = *connection_.replica();
    const std::int32_t own = connection_.admission().slot;
    render::SceneRequest request;
    request.positions = &interpolator_->sample(replica.history(), static_cast<double>(now_ms));
    if (own >= 0) request.followed = static_cast<game::Slot>(own);
    if (predictor_ && predictor_->ready()) request.followed_at = predictor_->drawn_position();
    request.kickoff = kickoff_tick_ && *kickoff_tick_ <= newest_tick_ &&
                      newest_tick_ - *kickoff_tick_ < render::kKickoffShownTicks;
    request.roster = show_roster;
    request.is_bot = [&replica](game::Slot s) { return replica.bot(s); };
    render::Scene scene = scenes_.build(*m, request);

    add_network_figures(scene.hud);
    scene.hud.server_tick = newest_tick_;
    scene.hud.banner = banner(*m);
    if (own < 0) {
        scene.hud.note = "spectating";
    } else if (static_cast<game::Slot>(own) < m->slot_count()) {
        scene.hud.note = m->team_of(static_cast<game::Slot>(own)) == game::Team::left
                             ? "you: left"
                             : "you: right";
    }
    scene.help = help;
    return scene;
}

}  // namespace carom::play
