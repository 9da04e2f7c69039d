// Updates out of the Server: each client's, due on its ticks, from the
// newest state it holds, or the whole state when there is none to start from.
#include "server.hpp"

#include "carom/protocol/full_state.hpp"

namespace carom::server {
namespace {

// The copy of a FullState to a client that holds nothing: this many ticks
// after it, so that one lost datagram does not cost a round trip.
constexpr std::uint64_t kFullStateCopyTicks = 2;
// Updates carry the server's tick time once a second (for the HUD).
constexpr std::uint64_t kTickTimeEveryTicks = 60;
// A spectator acknowledges rarely (PROTOCOL.md, "When a client sends"), so
// once it follows (a state acknowledged, no FullState on its way) its
// updates start from the update sent this many updates back, which it holds
// unless every one since was lost, rather than from an acknowledgement up to
// half a second old: the update then carries a few ticks' input changes, not
// two dozen's. A player's baseline must be a tick it held (its input
// sequence there), so a player's start from its acknowledgement. Three: all
// three lost is one update in 8000 at 5 % loss (the copy then drops for a
// FullState), and the downstream is 1.08× a spectator's acknowledging every
// tick on loopback (four: 1.13×).
constexpr std::uint64_t kSpectatorBaseUpdates = 3;

}  // namespace

void Server::send_full_state(Session& s, const Room& room) {
    if (!s.full_budget.take(tick_)) {
        ++stats_.full_states_held_back;
        return;
    }
    protocol::RoomState state = room.state();
    state.last_input_sequence = s.inputs.last_applied_sequence();
    state.server_tick_ms = last_tick_ms_;
    // A first FullState to a client that holds nothing gets its copy (the
    // same contents, sealed anew); a resend does not.
    const bool copy = s.acked == 0 && s.full_sent_tick == 0;
    s.full_copy.clear();
    protocol::encode_full_state(
        builder_, s.client_id, state, [&](std::span<const std::uint8_t> bytes) {
            stats_.full_state_bytes += bytes.size() + protocol::kSealOverheadBytes;
            send_sealed(s, bytes);
            if (copy) s.full_copy.emplace_back(bytes.begin(), bytes.end());
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
        // The copy of a join's FullState, the same contents (sealed anew, as
        // every datagram is): whichever lands, the updates built on it
        // meanwhile are decodable.
        if (!s.full_copy.empty() && tick_ - s.full_sent_tick >= kFullStateCopyTicks) {
            if (s.full_budget.take(tick_)) {
                for (const std::vector<std::uint8_t>& d : s.full_copy) {
                    stats_.full_state_bytes += d.size() + protocol::kSealOverheadBytes;
                    send_sealed(s, d);
                }
                ++stats_.full_states;
            } else {
                ++stats_.full_states_held_back;
            }
            s.full_copy.clear();
        }
        // From the newest state the client holds; else from the FullState on
        // its way, until it has had time to come back acknowledged (about 1.5
        // round trips; a client not yet heard, for as long as the history
        // reaches), and while the budget has no FullState to send again.
        const std::optional<std::uint64_t> resend_after = s.round_trip.full_state_resend_ticks();
        const bool resend_due = resend_after && tick_ - s.full_sent_tick >= *resend_after &&
                                s.full_budget.available(tick_);
        std::uint64_t baseline = 0;
        if (config_.delta_updates) {
            if (history.covers(s.acked)) {
                baseline = s.acked;
            } else if (s.full_sent_tick > s.acked && !resend_due &&
                       history.covers(s.full_sent_tick)) {
                baseline = s.full_sent_tick;
            }
        }
        const std::uint64_t back = kSpectatorBaseUpdates * interval;
        if (config_.delta_updates && !s.slot && s.acked != 0 && s.full_sent_tick == 0 &&
            !(s.ack_unanswered && baseline == s.acked) && tick_ > back && tick_ - back > s.acked &&
            history.covers(tick_ - back))
            baseline = tick_ - back;
        s.ack_unanswered = false;
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
