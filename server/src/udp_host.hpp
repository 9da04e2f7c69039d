#pragma once
// The thin Asio side of carom-server: one UDP socket (IPv4, or IPv6 dual
// stack), a drift-free fixed-rate tick, signals, and the periodic stats line.
// Everything the server decides is in Server; this only moves bytes and time.
#include <asio.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "server.hpp"
#include "transport.hpp"

namespace carom::server {

class UdpTransport final : public Transport {
  public:
    // Throws std::system_error (address in use, bad address...).
    UdpTransport(asio::io_context& io, const std::string& bind_address, std::uint16_t port);
    void send(const Endpoint& to, std::span<const std::uint8_t> datagram) override;
    // Calls `handler` for every datagram until the socket closes.
    void start_receiving(std::function<void(const Endpoint&, std::span<const std::uint8_t>)> handler);
    asio::ip::udp::endpoint local_endpoint() const { return socket_.local_endpoint(); }
    std::uint64_t send_errors() const { return send_errors_; }
    void close();

  private:
    void receive_next();

    asio::ip::udp::socket socket_;
    asio::ip::udp::endpoint sender_;
    alignas(8) std::array<std::uint8_t, 2048> buffer_{};
    std::function<void(const Endpoint&, std::span<const std::uint8_t>)> handler_;
    std::uint64_t send_errors_ = 0;
    bool v4_ = false;  // an IPv4 socket takes IPv4 destinations, not IPv4-mapped ones
};

struct HostOptions {
    std::uint32_t max_catch_up_ticks = 5;  // late by more: skip ticks and log
    double stats_interval_s = 10.0;        // 0: no stats line
    std::filesystem::path stats_file;      // JSON, rewritten every second; empty: none
    std::filesystem::path ready_file;      // written once listening: {"port": N}
};

// Runs the server until SIGINT/SIGTERM, then shuts it down cleanly. Returns
// the process exit code.
int run_host(asio::io_context& io, UdpTransport& transport, Server& server,
             const HostOptions& options);

}  // namespace carom::server
