#include "flood_sockets.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace carom::loadgen {

int loopback_socket(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only, whatever else is asked
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

std::size_t send_batch(int fd, const std::vector<std::span<const std::uint8_t>>& datagrams) {
    std::array<mmsghdr, kFloodBatch> messages{};
    std::array<iovec, kFloodBatch> vectors{};
    const std::size_t n = std::min(datagrams.size(), kFloodBatch);
    for (std::size_t i = 0; i < n; ++i) {
        vectors[i] = {const_cast<std::uint8_t*>(datagrams[i].data()), datagrams[i].size()};
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
    }
    const int sent = ::sendmmsg(fd, messages.data(), static_cast<unsigned>(n), 0);
    return sent > 0 ? static_cast<std::size_t>(sent) : 0;
}

std::unique_ptr<ForgedSender> ForgedSender::open(std::uint16_t server_port) {
    const int fd = ::socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
    if (fd < 0) return nullptr;
    return std::unique_ptr<ForgedSender>(new ForgedSender(fd, server_port));
}

ForgedSender::~ForgedSender() {
    ::close(fd_);
}

bool ForgedSender::send(std::uint16_t from_port, std::span<const std::uint8_t> payload) {
    std::array<std::uint8_t, 1500> packet{};
    if (payload.size() + sizeof(iphdr) + sizeof(udphdr) > packet.size()) return false;
    iphdr ip{};
    ip.version = 4;
    ip.ihl = 5;
    ip.ttl = 64;
    ip.protocol = IPPROTO_UDP;
    ip.saddr = htonl(INADDR_LOOPBACK);
    ip.daddr = htonl(INADDR_LOOPBACK);
    const auto total = sizeof ip + sizeof(udphdr) + payload.size();
    ip.tot_len = htons(static_cast<std::uint16_t>(total));
    udphdr udp{};
    udp.source = htons(from_port);
    udp.dest = htons(server_port_);
    udp.len = htons(static_cast<std::uint16_t>(sizeof udp + payload.size()));
    std::memcpy(packet.data(), &ip, sizeof ip);
    std::memcpy(packet.data() + sizeof ip, &udp, sizeof udp);
    std::memcpy(packet.data() + sizeof ip + sizeof udp, payload.data(), payload.size());
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return ::sendto(fd_, packet.data(), total, 0, reinterpret_cast<const sockaddr*>(&to),
                    sizeof to) > 0;
}

}  // namespace carom::loadgen
