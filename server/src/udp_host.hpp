#pragma once
// The thin Asio side of carom-server: one UDP socket (IPv4, or IPv6 dual
// stack), a drift-free fixed-rate tick, signals, and the periodic stats line.
// Everything the server decides is in Server; this only moves bytes and time.
#include <sys/socket.h>

#include <array>
#include <asio.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "door.hpp"
#include "server.hpp"
#include "transport.hpp"

namespace carom::server {

class UdpTransport final : public Transport {
  public:
    // The socket buffers asked for: a tick's inputs from every client arrive
    // between two reads, and the default (about 200 KB, some 250 small
    // datagrams) overflows past a few hundred clients. Linux caps the request
    // at net.core.rmem_max / wmem_max.
    static constexpr int kSocketBufferBytes = 4 << 20;

    // Throws std::system_error (address in use, bad address...).
    UdpTransport(asio::io_context& io, const std::string& bind_address, std::uint16_t port,
                 int socket_buffer_bytes = kSocketBufferBytes);
    // Queues the datagram; queued ones go out in one sendmmsg call when the
    // queue is full, after every batch received, and on flush().
    void send(const Endpoint& to, std::span<const std::uint8_t> datagram) override;
    void flush();
    // Calls `handler` for every datagram until the socket closes.
    void start_receiving(
        std::function<void(const Endpoint&, std::span<const std::uint8_t>)> handler);
    // The bounded receive path: per wake-up at most kMaxPerWakeup datagrams
    // are read, and reading stops as soon as `deadline` (the next tick) has
    // come, so the tick runs on time whatever arrives. What is left waits in
    // the socket buffer; what no longer fits there the kernel drops (counted).
    void set_receive_deadline(std::chrono::steady_clock::time_point deadline) {
        deadline_ = deadline;
    }
    static constexpr std::size_t kMaxPerWakeup = 1024;
    const ReceiveStats& receive_stats() const { return receive_stats_; }
    asio::ip::udp::endpoint local_endpoint() const { return socket_.local_endpoint(); }
    std::uint64_t send_errors() const { return send_errors_; }
    // What the kernel granted (capped by the sysctls; Asio undoes Linux's doubling).
    int receive_buffer_bytes() const;
    int send_buffer_bytes() const;
    void close();

  private:
    void receive_next();
    void receive_batch();

    // Datagrams read per recvmmsg call: one system call for a tick's worth of inputs.
    static constexpr std::size_t kBatch = 64;
    struct alignas(8) Slot {
        std::array<std::uint8_t, 2048> bytes;
    };

    asio::ip::udp::socket socket_;
    std::vector<Slot> buffers_ = std::vector<Slot>(kBatch);
    // The send queue: datagrams, their sizes and destinations.
    std::vector<Slot> out_ = std::vector<Slot>(kBatch);
    std::array<std::size_t, kBatch> out_sizes_{};
    std::array<sockaddr_storage, kBatch> out_to_{};
    std::array<socklen_t, kBatch> out_to_sizes_{};
    std::size_t queued_ = 0;
    std::function<void(const Endpoint&, std::span<const std::uint8_t>)> handler_;
    std::uint64_t send_errors_ = 0;
    std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
    ReceiveStats receive_stats_;
    std::uint32_t overflow_seen_ = 0;  // the kernel's counter at the last read
    bool overflow_known_ = false;
    bool v4_ = false;  // an IPv4 socket takes IPv4 destinations, not IPv4-mapped ones
};

struct HostOptions {
    std::uint32_t max_catch_up_ticks = 5;  // late by more: skip ticks and log
    double stats_interval_s = 10.0;        // 0: no stats line
    std::filesystem::path stats_file;      // JSON, rewritten every second; empty: none
    std::filesystem::path ready_file;      // written once listening: {"port": N}
    nlohmann::json ready_extra = nlohmann::json::object();  // more fields for the ready file
    // Called on the tick thread: after each tick (its work and lateness in
    // ms), once listening, and when a signal starts the shutdown.
    std::function<void(double work_ms, double late_ms)> on_tick;
    std::function<void()> on_listening;
    std::function<void()> on_stopping;
    // The WebSocket door (web_door.hpp), when there is one: drained on this
    // thread as its messages come and before each tick, within the same
    // budget as the socket, and flushed after each tick and drain.
    Door* web = nullptr;
};

// Runs the server until SIGINT/SIGTERM arrives on `signals`, then shuts it
// down cleanly. Returns the process exit code. Create `signals` before
// anything slow (the rooms build their worlds): a signal caught during
// start-up waits in it and ends the run as soon as it starts.
int run_host(asio::io_context& io, asio::signal_set& signals, UdpTransport& transport,
             Server& server, const HostOptions& options);

}  // namespace carom::server
