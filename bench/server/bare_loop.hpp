#pragma once
// The floor under a server tick: a plain UDP socket loop that reads a tick's
// datagrams with recvmmsg and sends its replies with sendmmsg, and does no
// carom work at all. Given the same datagrams as the server (same clients,
// counts and sizes), its CPU time is what the kernel alone costs; the
// server's CPU time over it (vs_bare) is what carom adds.
#include <netinet/in.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace carom::bench {

class BareLoop {
  public:
    // A datagram to send: to whom, and how many bytes.
    struct Reply {
        sockaddr_in to{};
        std::uint16_t bytes = 0;
    };

    // A socket on 127.0.0.1 (an ephemeral port) with buffers of the size
    // the server's transport asks for, so it drops no more than the server.
    // Throws std::system_error.
    explicit BareLoop(int socket_buffer_bytes);
    ~BareLoop();
    BareLoop(const BareLoop&) = delete;
    BareLoop& operator=(const BareLoop&) = delete;

    std::uint16_t port() const { return port_; }

    // One tick: reads every datagram waiting, then sends `replies`.
    // Returns the number of datagrams read.
    std::size_t tick(std::span<const Reply> replies);

  private:
    // Datagrams per system call, as the server's UdpTransport batches them.
    static constexpr std::size_t kBatch = 64;
    using Slot = std::array<std::uint8_t, 2048>;

    int fd_ = -1;
    std::uint16_t port_ = 0;
    std::vector<Slot> in_ = std::vector<Slot>(kBatch);
    // Every reply's bytes: the kernel's cost is in their size, not their content.
    Slot out_{};
};

}  // namespace carom::bench
