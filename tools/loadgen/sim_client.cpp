#include "sim_client.hpp"

#include <spdlog/spdlog.h>

namespace carom::loadgen {

SimClient::SimClient(asio::io_context& io, std::unique_ptr<Wire> wire,
                     client::ConnectionConfig config, const RunClock& clock, client::MapStore& maps)
    : wire_(std::move(wire)),
      clock_(clock),
      spectator_(config.spectator),
      connection_(
          std::move(config), [this](std::span<const std::uint8_t> b) { send(b); }, &maps),
      pump_timer_(io) {}

void SimClient::simulate_link(const linksim::LinkSpec& spec, std::uint64_t up_seed,
                              std::uint64_t down_seed) {
    up_.emplace(spec, up_seed);
    down_.emplace(spec, down_seed);
}

void SimClient::start() {
    wire_->start([this](std::span<const std::uint8_t> bytes) { on_wire(bytes); });
    connection_.connect(clock_.now_ms());
}

void SimClient::on_wire(std::span<const std::uint8_t> bytes) {
    if (closing_) return;
    if (!down_) return on_datagram(bytes);
    down_->send(clock_.now_us(), bytes);
    arm_pump();
}

void SimClient::on_datagram(std::span<const std::uint8_t> bytes) {
    const std::uint64_t now = clock_.now_ms();
    connection_.on_datagram(bytes, now);
    if (!accepted_ms_ && connection_.state() == client::State::connected) on_accepted(now);
    if (accepted_ms_) note_map();
    note_updates(now);
}

void SimClient::pump() {
    const std::int64_t now = clock_.now_us();
    up_->deliver(now, [this](std::span<const std::uint8_t> b, std::monostate) { send_now(b); });
    down_->deliver(now,
                   [this](std::span<const std::uint8_t> b, std::monostate) { on_datagram(b); });
    arm_pump();
}

void SimClient::arm_pump() {
    std::optional<std::int64_t> due = up_->next_due_us();
    if (const auto down = down_->next_due_us(); down && (!due || *down < *due)) due = down;
    if (!due || closing_) return;
    if (pump_armed_us_ && *pump_armed_us_ <= *due) return;  // already wakes in time
    pump_armed_us_ = due;
    pump_timer_.expires_at(clock_.start + std::chrono::microseconds(*due));
    pump_timer_.async_wait([this](boost::system::error_code ec) {
        if (ec) return;  // re-armed earlier (cancelled), or shutting down
        pump_armed_us_.reset();
        pump();
    });
}

void SimClient::note_updates(std::uint64_t now_ms) {
    const std::uint64_t received = connection_.stats().states_taken;
    if (received == updates_seen_ || !accepted_ms_) return;
    updates_seen_ = received;
    const std::uint64_t awake = clock_.awake_ms(now_ms);
    const std::uint64_t since = last_update_awake_ms_.value_or(*accepted_awake_ms_);
    max_gap_ms_ = std::max(max_gap_ms_, awake - since);
    last_update_awake_ms_ = awake;

    const std::uint32_t applied = connection_.last_input_sequence();
    while (!waiting_.empty() && static_cast<std::int32_t>(applied - waiting_.front().first) >= 0) {
        max_input_stall_ms_ = std::max(max_input_stall_ms_, awake - waiting_.front().second);
        if (input_waits_ms_.size() < 1'000'000)
            input_waits_ms_.push_back(static_cast<double>(awake - waiting_.front().second));
        waiting_.pop_front();
    }
}

void SimClient::note_sent() {
    const std::uint32_t sent = connection_.newest_sent_sequence();
    if (spectator_ || !accepted_awake_ms_ || sent == 0) return;
    if (!waiting_.empty() && waiting_.back().first == sent) return;
    if (static_cast<std::int32_t>(sent - connection_.last_input_sequence()) <= 0) return;
    waiting_.emplace_back(sent, clock_.awake_ms(clock_.now_ms()));
    if (waiting_.size() > 4096) waiting_.pop_front();
}

game::Input SimClient::human_input() {
    HumanKeys& h = *human_;
    if (h.kick_left > 0 && --h.kick_left == 0)
        h.held = game::Input::from_bits(
            static_cast<std::uint8_t>(h.held.bits() & ~unsigned{game::Input::kKickBit}));
    if (h.ticks_left > 0) {
        --h.ticks_left;
        return h.held;
    }
    h.ticks_left = 6 + static_cast<std::uint32_t>(h.rng() % 13);
    const std::uint64_t roll = h.rng() % 10;
    if (roll == 0) {
        h.held = game::Input::idle();
    } else if (roll == 1) {
        h.held = game::Input::from_bits(h.held.bits() | game::Input::kKickBit);  // tapped, 3 ticks
        h.kick_left = 3;
    } else {
        h.held = game::Input::move(static_cast<std::uint8_t>(h.rng() % 16));
    }
    return h.held;
}

void SimClient::send(std::span<const std::uint8_t> bytes) {
    if (!up_ || closing_) return send_now(bytes);
    up_->send(clock_.now_us(), bytes);
    arm_pump();
}

void SimClient::send_now(std::span<const std::uint8_t> bytes) {
    wire_->send(bytes);
}

void SimClient::tick() {
    const std::uint64_t now = clock_.now_ms();
    connection_.update(now);
    if (connection_.state() != client::State::connected) return;
    connection_.send_input(next_input(), now);
    note_sent();
}

void SimClient::on_accepted(std::uint64_t now_ms) {
    accepted_ms_ = now_ms;
    accepted_awake_ms_ = clock_.awake_ms(now_ms);
    updates_seen_ = connection_.stats().states_taken;  // none counted before acceptance
    const client::Admission& s = connection_.admission();
    spdlog::debug("client {}: accepted in room {} slot {} on map {}", s.client_id, s.room, s.slot,
                  s.map_name);
}

void SimClient::note_map() {
    if (map_known_) return;
    if (const auto ready = connection_.take_map_ready()) {
        map_known_ = true;
        if (!ready->keep_problem.empty())
            spdlog::warn("the fetched map is not kept: {}", ready->keep_problem);
    } else if (connection_.close_reason() == client::CloseReason::bad_map && map_problem_.empty()) {
        map_problem_ = connection_.close_detail();
        spdlog::warn("client {}: {}", connection_.admission().client_id, map_problem_);
    }
}

game::Input SimClient::next_input() {
    const client::Replica* replica = connection_.replica();
    if (replica == nullptr || spectator_) return game::Input::idle();
    if (human_) return human_input();
    return bot_.next(*replica, connection_.admission().slot);
}

ClientResult SimClient::finish() {
    const std::uint64_t now = clock_.now_ms();
    ClientResult r;
    r.spectator = spectator_;
    r.accepted = accepted_ms_.has_value();
    const client::State state = connection_.state();
    const client::CloseReason reason = connection_.close_reason();
    if (state == client::State::connected) {
        r.outcome = "connected";
    } else if (state == client::State::connecting) {
        r.outcome = "still connecting";
    } else if (reason == client::CloseReason::denied) {
        r.deny_reason = net::EnumNameDenyReason(connection_.deny_reason());
        r.outcome = "denied: " + r.deny_reason;
        if (!connection_.close_detail().empty())
            r.outcome += " (" + connection_.close_detail() + ")";
    } else if (reason == client::CloseReason::server_disconnect) {
        r.outcome = std::string("server disconnect: ") +
                    net::EnumNameDisconnectReason(connection_.server_disconnect_reason());
    } else {
        r.outcome = std::string(client::to_string(reason));
    }
    r.connected_s = accepted_ms_ ? static_cast<double>(now - *accepted_ms_) / 1000.0 : 0.0;
    r.map_problem = map_problem_;
    if (accepted_ms_) {
        // The silence at the end counts too: a server frozen for the last
        // seconds of the run shows as a long gap.
        const std::uint64_t awake = clock_.awake_ms(now);
        const std::uint64_t since = last_update_awake_ms_.value_or(*accepted_awake_ms_);
        r.max_gap_ms = std::max(max_gap_ms_, awake - since);
        if (!spectator_)
            r.max_input_stall_ms = std::max(max_input_stall_ms_,
                                            waiting_.empty() ? 0 : awake - waiting_.front().second);
        r.update_rate_hz = connection_.admission().update_rate_hz;
    }
    r.client_id = connection_.admission().client_id;
    if (const client::Replica* replica = connection_.replica();
        replica != nullptr && replica->holds())
        spdlog::debug("client {}: {}; last update tick {}, score {}-{}",
                      connection_.admission().client_id, r.outcome, replica->tick(),
                      replica->match().score(game::Team::left),
                      replica->match().score(game::Team::right));

    closing_ = true;
    pump_timer_.cancel();
    connection_.disconnect(now);
    r.stats = connection_.stats();
    r.input_waits_ms = std::move(input_waits_ms_);
    r.holds_state = connection_.replica() != nullptr && connection_.replica()->holds();
    r.socket_errors = wire_->errors();
    wire_->close();
    return r;
}

}  // namespace carom::loadgen
