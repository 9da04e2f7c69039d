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
#include <string>

namespace carom::loadgen {

int loopback_socket(std::uint16_t port, std::uint32_t source) {
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    if (source >> 24 == 127) {
        sockaddr_in from{};
        from.sin_family = AF_INET;
        from.sin_addr.s_addr = htonl(source);
        if (::bind(fd, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) {
            ::close(fd);
            return -1;
        }
    }
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

std::optional<LoopbackAddress> parse_loopback(std::string_view text) {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const std::string ip(text.substr(0, colon));
    in_addr a{};
    if (::inet_pton(AF_INET, ip.c_str(), &a) != 1) return std::nullopt;
    const std::uint32_t host = ntohl(a.s_addr);
    if (host >> 24 != 127) return std::nullopt;
    unsigned port = 0;
    const std::string_view digits = text.substr(colon + 1);
    if (digits.empty() || digits.size() > 5) return std::nullopt;
    for (const char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        port = port * 10 + static_cast<unsigned>(c - '0');
    }
    if (port == 0 || port > 65535) return std::nullopt;
    return LoopbackAddress{host, static_cast<std::uint16_t>(port)};
}

std::unique_ptr<ForgedSender> ForgedSender::open() {
    const int fd = ::socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
    if (fd < 0) return nullptr;
    return std::unique_ptr<ForgedSender>(new ForgedSender(fd));
}

ForgedSender::~ForgedSender() {
    ::close(fd_);
}

bool ForgedSender::send(LoopbackAddress from, LoopbackAddress to,
                        std::span<const std::uint8_t> payload) {
    std::array<std::uint8_t, 1500> packet{};
    if (payload.size() + sizeof(iphdr) + sizeof(udphdr) > packet.size()) return false;
    if (to.ip >> 24 != 127) return false;  // loopback only, whatever else is asked
    iphdr ip{};
    ip.version = 4;
    ip.ihl = 5;
    ip.ttl = 64;
    ip.protocol = IPPROTO_UDP;
    ip.saddr = htonl(from.ip);
    ip.daddr = htonl(to.ip);
    const auto total = sizeof ip + sizeof(udphdr) + payload.size();
    ip.tot_len = htons(static_cast<std::uint16_t>(total));
    udphdr udp{};
    udp.source = htons(from.port);
    udp.dest = htons(to.port);
    udp.len = htons(static_cast<std::uint16_t>(sizeof udp + payload.size()));
    std::memcpy(packet.data(), &ip, sizeof ip);
    std::memcpy(packet.data() + sizeof ip, &udp, sizeof udp);
    std::memcpy(packet.data() + sizeof ip + sizeof udp, payload.data(), payload.size());
    sockaddr_in dest{};
    dest.sin_family = AF_INET;
    dest.sin_addr.s_addr = htonl(to.ip);
    return ::sendto(fd_, packet.data(), total, 0, reinterpret_cast<const sockaddr*>(&dest),
                    sizeof dest) > 0;
}

}  // namespace carom::loadgen
