#include "udp_link.hpp"

#include <algorithm>
#include <limits>
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

void UdpLink::simulate(const linksim::LinkSpec& spec, std::uint64_t up_seed,
                       std::uint64_t down_seed, std::function<std::int64_t()> now_us) {
    up_.emplace(spec, up_seed);
    down_.emplace(spec, down_seed);
    now_us_ = std::move(now_us);
}

std::optional<std::int64_t> UdpLink::next_due_us() const {
    if (!up_) return std::nullopt;
    const auto up = up_->next_due_us();
    const auto down = down_->next_due_us();
    if (up && down) return std::min(*up, *down);
    return up ? up : down;
}

void UdpLink::flush_simulated() {
    if (!up_) return;
    up_->deliver(std::numeric_limits<std::int64_t>::max(),
                 [this](std::span<const std::uint8_t> b, std::monostate) { send_now(b); });
}

void UdpLink::send(std::span<const std::uint8_t> bytes) {
    if (!up_) return send_now(bytes);
    const std::int64_t now = now_us_();
    up_->send(now, bytes);
    up_->deliver(now, [this](std::span<const std::uint8_t> b, std::monostate) { send_now(b); });
}

void UdpLink::send_now(std::span<const std::uint8_t> bytes) {
    std::error_code ec;
    socket_.send(asio::buffer(bytes.data(), bytes.size()), 0, ec);
    if (ec) ++errors_;
}

void UdpLink::drain(const std::function<void(std::span<const std::uint8_t>)>& on_datagram) {
    for (;;) {
        std::error_code ec;
        const std::size_t n = socket_.receive(asio::buffer(buffer_), 0, ec);
        if (ec == asio::error::would_block || ec == asio::error::try_again) break;
        if (ec) {
            // ICMP port unreachable lands here on a connected socket: the
            // handshake keeps retrying until its timeout says "unreachable".
            ++errors_;
            break;
        }
        if (down_)
            down_->send(now_us_(), {buffer_.data(), n});
        else
            on_datagram({buffer_.data(), n});
    }
    if (!up_) return;
    const std::int64_t now = now_us_();
    up_->deliver(now, [this](std::span<const std::uint8_t> b, std::monostate) { send_now(b); });
    down_->deliver(now, [&](std::span<const std::uint8_t> b, std::monostate) { on_datagram(b); });
}

}  // namespace carom::app
