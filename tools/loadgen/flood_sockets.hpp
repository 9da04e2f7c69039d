#pragma once
// The sockets carom-flood sends through, all to loopback: connected UDP
// sockets to 127.0.0.1 written a batch at a time (sendmmsg), and a raw
// socket that forges the source address and port (root only).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace carom::loadgen {

inline constexpr std::size_t kFloodBatch = 64;  // datagrams per sendmmsg

// A UDP socket connected to 127.0.0.1:`port`, whatever else is asked, sending
// from `source` (an address of 127.0.0.0/8, host byte order; 0: the
// system's choice); -1 on failure.
int loopback_socket(std::uint16_t port, std::uint32_t source = 0);

// Sends up to kFloodBatch `datagrams` on a connected socket in one call;
// returns how many went.
std::size_t send_batch(int fd, const std::vector<std::span<const std::uint8_t>>& datagrams);

// An address of 127.0.0.0/8 (host byte order) and a port.
struct LoopbackAddress {
    std::uint32_t ip = 0x7F00'0001;  // 127.0.0.1
    std::uint16_t port = 0;
};
// "127.x.y.z:PORT"; nullopt for anything else.
std::optional<LoopbackAddress> parse_loopback(std::string_view text);

// A datagram with any source address and port, to an address of
// 127.0.0.0/8: IPv4 and UDP headers by hand on a raw socket. The UDP
// checksum is left 0 (none, allowed on IPv4).
class ForgedSender {
  public:
    // Null without the right to open a raw socket (root, CAP_NET_RAW).
    static std::unique_ptr<ForgedSender> open();
    ~ForgedSender();
    ForgedSender(const ForgedSender&) = delete;
    ForgedSender& operator=(const ForgedSender&) = delete;

    bool send(LoopbackAddress from, LoopbackAddress to, std::span<const std::uint8_t> payload);

  private:
    explicit ForgedSender(int fd) : fd_(fd) {}
    int fd_;
};

}  // namespace carom::loadgen
