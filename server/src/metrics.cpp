#include "metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "carom/protocol/packet.hpp"
#include "server.hpp"
#include "udp_host.hpp"

namespace carom::server {

void Histogram::add(double seconds) {
    ++count_;
    sum_s_ += seconds;
    for (std::size_t i = 0; i < kBoundsS.size(); ++i) {
        if (seconds <= kBoundsS[i]) {
            ++buckets_[i];
            return;
        }
    }
}

void Histogram::render(std::string& out, const std::string& name) const {
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < kBoundsS.size(); ++i) {
        cumulative += buckets_[i];
        out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, kBoundsS[i], cumulative);
    }
    out += fmt::format("{}_bucket{{le=\"+Inf\"}} {}\n", name, count_);
    out += fmt::format("{}_sum {}\n{}_count {}\n", name, sum_s_, name, count_);
}

Metrics::Metrics(std::chrono::duration<double> stall_after) : stall_after_(stall_after) {}

void Metrics::record_tick(double work_ms, double late_ms) {
    work_.add(work_ms / 1000.0);
    late_.add(late_ms / 1000.0);
    last_tick_.store(Clock::now().time_since_epoch().count());
}

void Metrics::publish(const Server& server, const UdpTransport& transport, bool force) {
    const auto now = Clock::now();
    if (!force && now < next_publish_) return;
    next_publish_ = now + std::chrono::milliseconds(100);
    MetricsReading s;
    s.tick_work = work_;
    s.tick_late = late_;
    const Stats& st = server.stats();
    s.ticks = st.ticks;
    s.ticks_dropped = st.ticks_dropped;
    s.ticks_catch_up = st.ticks_catch_up;
    s.clients = server.session_count();
    s.players = server.player_count();
    s.rooms = server.room_count();
    s.packets_in = st.packets_in;
    s.packets_out = st.packets_out;
    s.bytes_in = st.bytes_in;
    s.bytes_out = st.bytes_out;
    s.send_errors = transport.send_errors();
    s.dropped_unread = transport.receive_stats().dropped_unread;
    // Label values in snake_case, as Prometheus names go ("bad identifier" -> bad_identifier).
    const auto label = [](std::string_view reason) {
        std::string text(reason);
        std::replace(text.begin(), text.end(), ' ', '_');
        return text;
    };
    for (std::size_t i = 0; i < st.invalid.size(); ++i)
        s.invalid.emplace_back(label(protocol::to_string(static_cast<protocol::PacketError>(i))),
                               st.invalid[i]);
    for (std::size_t i = 0; i < st.dropped.size(); ++i)
        s.invalid.emplace_back(label(to_string(static_cast<Drop>(i))), st.dropped[i]);
    for (std::size_t i = 0; i < st.denied.size(); ++i)
        s.denied.emplace_back(net::EnumNameDenyReason(static_cast<net::DenyReason>(i)),
                              st.denied[i]);
    s.replay_write_errors = st.replay_write_errors;
    s.rooms_failed = st.rooms_failed;
    s.replay_bytes_kept = st.replay_bytes_kept;
    s.replay_files_removed = st.replay_files_removed;
    s.matches_finished = server.matches_finished();
    s.map_transfers_started = st.map_transfers_started;
    s.map_transfers_completed = st.map_transfers_completed;
    s.map_transfers_failed = st.map_transfers_failed;
    s.map_bytes_out = st.map_bytes_out;
    s.status_answered = st.status_answered;
    s.status_refused = st.status_refused;
    s.full_state_bytes = st.full_state_bytes;
    s.full_states_held_back = st.full_states_held_back;
    const std::lock_guard lock(mutex_);
    published_ = std::move(s);
}

MetricsReading Metrics::read() const {
    const std::lock_guard lock(mutex_);
    return published_;
}

double Metrics::seconds_since_tick() const {
    const Clock::time_point last{Clock::duration{last_tick_.load()}};
    return std::chrono::duration<double>(Clock::now() - last).count();
}

std::string Metrics::prometheus_text() const {
    const MetricsReading s = read();
    std::string out;
    const auto metric = [&out](const char* name, const char* type, const char* help, auto value) {
        out +=
            fmt::format("# HELP {} {}\n# TYPE {} {}\n{} {}\n", name, help, name, type, name, value);
    };
    out +=
        "# HELP carom_tick_duration_seconds Work inside a tick (simulation, updates, sends).\n"
        "# TYPE carom_tick_duration_seconds histogram\n";
    s.tick_work.render(out, "carom_tick_duration_seconds");
    out +=
        "# HELP carom_tick_lateness_seconds How late each tick started against its schedule.\n"
        "# TYPE carom_tick_lateness_seconds histogram\n";
    s.tick_late.render(out, "carom_tick_lateness_seconds");
    metric("carom_ticks_total", "counter", "Ticks run.", s.ticks);
    metric("carom_ticks_dropped_total", "counter", "Ticks skipped because the server fell behind.",
           s.ticks_dropped);
    metric("carom_ticks_catch_up_total", "counter", "Ticks run back to back to catch up.",
           s.ticks_catch_up);
    metric("carom_seconds_since_tick", "gauge", "Seconds since the tick loop last ran a tick.",
           seconds_since_tick());
    metric("carom_clients", "gauge", "Connected sessions (players and spectators).", s.clients);
    metric("carom_players", "gauge", "Players in rooms.", s.players);
    metric("carom_rooms", "gauge", "Rooms (matches) run by this process.", s.rooms);
    metric("carom_packets_received_total", "counter", "Datagrams received.", s.packets_in);
    metric("carom_packets_sent_total", "counter", "Datagrams sent.", s.packets_out);
    metric("carom_bytes_received_total", "counter", "Payload bytes received.", s.bytes_in);
    metric("carom_bytes_sent_total", "counter", "Payload bytes sent.", s.bytes_out);
    metric("carom_send_errors_total", "counter", "Datagrams the socket failed to send.",
           s.send_errors);
    metric("carom_receive_dropped_unread_total", "counter",
           "Datagrams the kernel dropped unread (socket buffer full).", s.dropped_unread);
    out +=
        "# HELP carom_invalid_datagrams_total Datagrams dropped as invalid, by reason.\n"
        "# TYPE carom_invalid_datagrams_total counter\n";
    for (const auto& [reason, n] : s.invalid)
        out += fmt::format("carom_invalid_datagrams_total{{reason=\"{}\"}} {}\n", reason, n);
    out +=
        "# HELP carom_handshakes_denied_total Handshakes answered Denied, by reason.\n"
        "# TYPE carom_handshakes_denied_total counter\n";
    for (const auto& [reason, n] : s.denied)
        out += fmt::format("carom_handshakes_denied_total{{reason=\"{}\"}} {}\n", reason, n);
    metric("carom_replay_write_errors_total", "counter",
           "Replays that could not be created or written (the match went on unrecorded).",
           s.replay_write_errors);
    metric("carom_rooms_failed_total", "counter", "Rooms paused by a fault in their step.",
           s.rooms_failed);
    metric("carom_matches_finished_total", "counter", "Matches played to the end.",
           s.matches_finished);
    metric("carom_replay_bytes", "gauge",
           "Bytes of the replays kept (finished and being written) under a disk budget.",
           s.replay_bytes_kept);
    metric("carom_replay_files_removed_total", "counter",
           "Finished replays removed to keep the disk budget.", s.replay_files_removed);
    metric("carom_map_transfers_started_total", "counter",
           "Map transfers started (a client asked for the map of its room).",
           s.map_transfers_started);
    metric("carom_map_transfers_completed_total", "counter",
           "Map transfers completed (the client went on to hold the match).",
           s.map_transfers_completed);
    metric("carom_map_transfers_failed_total", "counter",
           "Map transfers whose session ended before they completed.", s.map_transfers_failed);
    metric("carom_map_bytes_sent_total", "counter", "Map bytes sent in map chunks.",
           s.map_bytes_out);
    metric("carom_status_queries_answered_total", "counter", "Status queries answered.",
           s.status_answered);
    metric("carom_status_queries_refused_total", "counter",
           "Status queries refused (unpadded or over the per-address rate).", s.status_refused);
    metric("carom_full_state_bytes_sent_total", "counter",
           "Bytes of full states sent (joins, resyncs, clients that acknowledge nothing).",
           s.full_state_bytes);
    metric("carom_full_states_held_back_total", "counter",
           "Full states due but not sent: the session had spent its full-state budget.",
           s.full_states_held_back);
    return out;
}

}  // namespace carom::server
