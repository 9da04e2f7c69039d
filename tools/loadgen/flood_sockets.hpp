#pragma once
// The sockets carom-flood sends through, all to 127.0.0.1: connected UDP
// sockets written a batch at a time (sendmmsg), and a raw socket that forges
// the source port (root only).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace carom::loadgen {

inline constexpr std::size_t kFloodBatch = 64;  // datagrams per sendmmsg

// A UDP socket connected to 127.0.0.1:`port`, whatever else is asked; -1 on failure.
int loopback_socket(std::uint16_t port);

// Sends up to kFloodBatch `datagrams` on a connected socket in one call;
// returns how many went.
std::size_t send_batch(int fd, const std::vector<std::span<const std::uint8_t>>& datagrams);

// A datagram as if from another port of 127.0.0.1: IPv4 and UDP headers by
// hand on a raw socket. The UDP checksum is left 0 (none, allowed on IPv4).
class ForgedSender {
  public:
    // Null without the right to open a raw socket (root, CAP_NET_RAW).
    static std::unique_ptr<ForgedSender> open(std::uint16_t server_port);
    ~ForgedSender();
    ForgedSender(const ForgedSender&) = delete;
    ForgedSender& operator=(const ForgedSender&) = delete;

    bool send(std::uint16_t from_port, std::span<const std::uint8_t> payload);

  private:
    ForgedSender(int fd, std::uint16_t port) : fd_(fd), server_port_(port) {}
    int fd_;
    std::uint16_t server_port_;
};

}  // namespace carom::loadgen
