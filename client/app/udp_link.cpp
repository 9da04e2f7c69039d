#include "udp_link.hpp"

#include <stdexcept>

namespace carom::app {

UdpLink::UdpLink(asio::io_context& io, const client::HostPort& server) : socket_(io) {
    asio::ip::udp::resolver resolver(io);
    std::error_code ec;
    const auto results = resolver.resolve(server.host, std::to_string(server.port), ec);
    if (ec || results.empty())
        throw std::runtime_error("cannot resolve '" + server.host + "'" +
                                 (ec ? ": " + ec.message() : std::string()));
    const asio::ip::udp::endpoint to = *results.begin();
    socket_.open(to.protocol());
    socket_.connect(to);
    socket_.non_blocking(true);
}

void UdpLink::send(std::span<const std::uint8_t> bytes) {
    std::error_code ec;
    socket_.send(asio::buffer(bytes.data(), bytes.size()), 0, ec);
    if (ec) ++errors_;
}

void UdpLink::drain(const std::function<void(std::span<const std::uint8_t>)>& on_datagram) {
    for (;;) {
        std::error_code ec;
        const std::size_t n = socket_.receive(asio::buffer(buffer_), 0, ec);
        if (ec == asio::error::would_block || ec == asio::error::try_again) return;
        if (ec) {
            // ICMP port unreachable lands here on a connected socket: the
            // handshake keeps retrying until its timeout says "unreachable".
            ++errors_;
            return;
        }
        on_datagram({buffer_.data(), n});
    }
}

}  // namespace carom::app
