#pragma once
// What an operator scrapes: the server's figures in Prometheus text format,
// and whether the tick loop is alive.
//
// Threads: the server is one Asio thread (the tick loop); the HTTP endpoint
// and the Agones client run on their own threads. Nothing of the Server is
// read off the tick thread: the tick thread copies its figures into a
// MetricsReading under a mutex (at most every 100 ms) and stamps an atomic
// heartbeat every tick; the other threads read only those.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace carom::server {

class Server;
class UdpTransport;

// A Prometheus histogram with fixed buckets (upper bounds in seconds).
class Histogram {
  public:
    static constexpr std::array<double, 12> kBoundsS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.033, 0.1, 0.5, 2.0};
    void add(double seconds);
    // Lines "<name>_bucket{le=...} n", "<name>_sum", "<name>_count".
    void render(std::string& out, const std::string& name) const;

  private:
    std::array<std::uint64_t, kBoundsS.size()> buckets_{};  // not cumulative
    std::uint64_t count_ = 0;
    double sum_s_ = 0.0;
};

// The server's figures as the tick thread last published them.
struct MetricsReading {
    Histogram tick_work, tick_late;
    std::uint64_t ticks = 0, ticks_dropped = 0, ticks_catch_up = 0;
    std::uint64_t clients = 0, players = 0, rooms = 0;
    std::uint64_t packets_in = 0, packets_out = 0, bytes_in = 0, bytes_out = 0;
    std::uint64_t send_errors = 0, dropped_unread = 0;
    std::vector<std::pair<std::string, std::uint64_t>> invalid;  // by reason
    std::vector<std::pair<std::string, std::uint64_t>> denied;   // handshakes, by DenyReason
    std::uint64_t replay_write_errors = 0, rooms_failed = 0, matches_finished = 0;
    std::uint64_t replay_bytes_kept = 0, replay_files_removed = 0;
    std::uint64_t map_transfers_started = 0, map_transfers_completed = 0;
    std::uint64_t map_transfers_failed = 0, map_bytes_out = 0;
    std::uint64_t status_answered = 0, status_refused = 0;
    std::uint64_t full_state_bytes = 0, full_states_held_back = 0;
};

class Metrics {
  public:
    using Clock = std::chrono::steady_clock;
    explicit Metrics(std::chrono::duration<double> stall_after);

    // Tick thread: after every tick (work and lateness in ms).
    void record_tick(double work_ms, double late_ms);
    // Tick thread: copies the server's figures for the other threads (at
    // most every 100 ms unless forced).
    void publish(const Server& server, const UdpTransport& transport, bool force = false);
    // Tick thread: the server has begun to shut down.
    void set_draining() { draining_.store(true); }

    // Any thread: the figures last published.
    MetricsReading read() const;
    std::string prometheus_text() const;
    // Seconds since the last tick ran (since construction before the first).
    double seconds_since_tick() const;
    bool stalled() const { return seconds_since_tick() > stall_after_.count(); }
    bool draining() const { return draining_.load(); }
    std::chrono::duration<double> stall_after() const { return stall_after_; }

  private:
    const std::chrono::duration<double> stall_after_;
    std::atomic<Clock::rep> last_tick_{Clock::now().time_since_epoch().count()};
    std::atomic<bool> draining_{false};
    Clock::time_point next_publish_{};
    Histogram work_, late_;  // tick thread's own, copied on publish
    mutable std::mutex mutex_;
    MetricsReading published_;
};

}  // namespace carom::server
