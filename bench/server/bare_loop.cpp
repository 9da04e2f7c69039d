#include "server/bare_loop.hpp"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace carom::bench {
namespace {

[[noreturn]] void throw_errno(const char* what) {
    throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

BareLoop::BareLoop(int socket_buffer_bytes) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw_errno("bare loop: socket");
    sockaddr_in local{};
    local.sin_family = AF_INET;
    local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof local;
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&local), size) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&local), &size) != 0) {
        ::close(fd_);
        throw_errno("bare loop: bind");
    }
    port_ = ntohs(local.sin_port);
    // Best effort, as the server's transport: the kernel caps them at rmem_max / wmem_max.
    (void)::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &socket_buffer_bytes,
                       sizeof socket_buffer_bytes);
    (void)::setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &socket_buffer_bytes,
                       sizeof socket_buffer_bytes);
}

BareLoop::~BareLoop() {
    ::close(fd_);
}

std::size_t BareLoop::tick(std::span<const Reply> replies) {
    // Read: batches of recvmmsg until the socket is empty. The senders'
    // addresses are read too, as any server must to know who spoke.
    std::array<mmsghdr, kBatch> messages{};
    std::array<iovec, kBatch> vectors{};
    std::array<sockaddr_in, kBatch> senders{};
    std::size_t read = 0;
    for (;;) {
        for (std::size_t i = 0; i < kBatch; ++i) {
            vectors[i] = {in_[i].data(), in_[i].size()};
            messages[i].msg_hdr = {};
            messages[i].msg_hdr.msg_iov = &vectors[i];
            messages[i].msg_hdr.msg_iovlen = 1;
            messages[i].msg_hdr.msg_name = &senders[i];
            messages[i].msg_hdr.msg_namelen = sizeof senders[i];
        }
        const int n = ::recvmmsg(fd_, messages.data(), kBatch, MSG_DONTWAIT, nullptr);
        if (n <= 0) break;  // empty (EAGAIN)
        read += static_cast<std::size_t>(n);
        if (static_cast<std::size_t>(n) < kBatch) break;
    }

    // Send: the replies in batches of sendmmsg. A datagram the kernel refuses
    // is skipped, as the server's transport skips it.
    std::size_t done = 0;
    while (done < replies.size()) {
        const std::size_t count = std::min(kBatch, replies.size() - done);
        for (std::size_t i = 0; i < count; ++i) {
            const Reply& r = replies[done + i];
            vectors[i] = {out_.data(), r.bytes};
            messages[i].msg_hdr = {};
            messages[i].msg_hdr.msg_iov = &vectors[i];
            messages[i].msg_hdr.msg_iovlen = 1;
            messages[i].msg_hdr.msg_name = const_cast<sockaddr_in*>(&r.to);
            messages[i].msg_hdr.msg_namelen = sizeof r.to;
        }
        const int n = ::sendmmsg(fd_, messages.data(), static_cast<unsigned>(count), MSG_DONTWAIT);
        done += n > 0 ? static_cast<std::size_t>(n) : 1;
    }
    return read;
}

}  // namespace carom::bench
