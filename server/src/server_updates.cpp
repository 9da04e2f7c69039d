// Updates out of the Server: each client's, due on its ticks, from the
// newest state it holds, or the whole state when there is none to start from.
#include "server.hpp"

#include "carom/protocol/full_state.hpp"

namespace carom::server {
namespace {

// A FullState not acknowledged within this many ticks is sent again (more
// than a 200 ms round trip with its jitter): the budget's own pace.
constexpr std::uint64_t kFullStateResendTicks = FullStateBudget::kEveryTicks;
// Updates carry the server's tick time once a second (for the HUD).
constexpr std::uint64_t kTickTimeEveryTicks = 60;

}  // namespace

void Server::send_full_state(Session& s, const Room& room) {
    if (!s.full_budget.take(tick_)) {
        ++stats_.full_states_held_back;
        return;
    }
    protocol::RoomState state = room.state();
    state.last_input_sequence = s.inputs.last_applied_sequence();
    state.server_tick_ms = last_tick_ms_;
    protocol::encode_full_state(
        builder_, s.client_id, state, [&](std::span<const std::uint8_t> bytes) {
            stats_.full_state_bytes += bytes.size() + protocol::kSealOverheadBytes;
            send_sealed(s, bytes);
        });
    s.full_sent_tick = tick_;
    ++stats_.full_states;
}

void Server::send_updates() {
    const std::uint32_t interval = game::kTickRate / config_.update_rate_hz;
    for (auto& [id, s] : sessions_) {
        // Clients are spread over the ticks of an update interval, so the
        // sending cost is even from tick to tick instead of a spike every other.
        if (!s.connected || (tick_ + s.spread) % interval != 0) continue;
        const Room& room = *rooms_[s.room];
        const TickHistory& history = room.history();
        // From the newest state the client holds; else from the FullState on
        // its way, until it has had time to come back acknowledged.
        std::uint64_t baseline = 0;
        if (config_.delta_updates) {
            if (history.covers(s.acked)) {
                baseline = s.acked;
            } else if (s.full_sent_tick > s.acked &&
                       tick_ - s.full_sent_tick < kFullStateResendTicks &&
                       history.covers(s.full_sent_tick)) {
                baseline = s.full_sent_tick;
            }
        }
        const std::optional<std::uint32_t> from = s.slot ? s.applied_at(baseline) : 0U;
        if (baseline == 0 || !from) {
            send_full_state(s, room);
            continue;
        }
        protocol::Update& u = update_;
        u.tick = tick_;
        u.baseline = baseline;
        u.state = protocol::state_check(room.state_hash());
        u.sequence_advance = s.inputs.last_applied_sequence() - *from;
        history.fill(u);
        u.server_tick_ms.reset();
        if ((tick_ + s.spread) % kTickTimeEveryTicks == 0) u.server_tick_ms = last_tick_ms_;
        const protocol::UpdateContext context{room.slot_count(), s.slot.has_value()};
        const auto bytes = protocol::encode_update(builder_, u, context);
        // An update too long for a datagram (a long gap in a busy room): the state instead.
        if (bytes.empty() || bytes.size() > protocol::kMaxSessionDatagramBytes) {
            send_full_state(s, room);
            continue;
        }
        ++stats_.updates;
        send_sealed(s, bytes);
    }
}

}  // namespace carom::server
