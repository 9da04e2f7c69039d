#include "abuser.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <random>

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/packet.hpp"
#include "flood_sockets.hpp"

namespace carom::loadgen {
namespace {

client::ConnectionConfig config(std::int32_t room, const std::string& name, bool spectator) {
    client::ConnectionConfig c;
    c.name = name;
    c.room = room;
    c.spectator = spectator;
    c.token = std::random_device{}();
    return c;
}

}  // namespace

Abuser::Abuser(std::uint16_t port, std::int32_t room, const std::string& name, bool spectator)
    : fd_(loopback_socket(port)),
      connection_(config(room, name, spectator), [this](std::span<const std::uint8_t> b) {
          (void)::send(fd_, b.data(), b.size(), 0);
      }) {}

Abuser::~Abuser() {
    if (fd_ >= 0) ::close(fd_);
}

bool Abuser::connect(const RunClock& clock) {
    connection_.connect(clock.now_ms());
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (std::chrono::steady_clock::now() < give_up &&
           connection_.state() == client::State::connecting) {
        pollfd p{fd_, POLLIN, 0};
        ::poll(&p, 1, 20);
        drain(clock);
        connection_.update(clock.now_ms());
    }
    return connected();
}

void Abuser::drain(const RunClock& clock) {
    alignas(8) std::array<std::uint8_t, 2048> buffer{};
    for (;;) {
        const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (n <= 0) return;
        const std::span<const std::uint8_t> sealed(buffer.data(), static_cast<std::size_t>(n));
        // Read as the connection will: opened with a copy of its keys.
        std::span<const std::uint8_t> d = sealed;
        protocol::DatagramBuffer opened{};
        if (const protocol::SessionSeal* seal = connection_.session_seal();
            seal != nullptr && protocol::is_sealed(sealed)) {
            protocol::SessionSeal copy = *seal;
            protocol::SealRefusal refused{};
            d = copy.open(sealed, opened, refused);
        }
        if (protocol::classify(d) == protocol::DatagramKind::server_update) {
            if (const auto u = protocol::verify_server_update(d)) {
                ++delta;
                newest_tick =
                    std::max(newest_tick, protocol::extend16((*u)->head()->tick(), newest_tick));
            }
        } else if (const auto p = protocol::verify_packet(d); p && (*p)->body_as_FullState()) {
            ++full;
            full_bytes += sealed.size();
            newest_tick = std::max(newest_tick, (*p)->body_as_FullState()->tick());
        }
        if (connection_.state() != client::State::closed)
            connection_.on_datagram(sealed, clock.now_ms());
    }
}

void Abuser::send_input(std::uint32_t first, std::uint32_t count, std::uint64_t ack) {
    flatbuffers::FlatBufferBuilder b;
    protocol::ClientReport r;
    r.inputs.assign(count, game::Input::idle());
    r.sequence = first + count - 1;
    if (ack != 0) r.ack = ack;
    const auto bytes = connection_.seal(protocol::encode_client_report(b, r));
    (void)::send(fd_, bytes.data(), bytes.size(), 0);
    ++inputs_sent;
}

}  // namespace carom::loadgen
