#pragma once
// One session of carom-flood's own, over its own socket to 127.0.0.1: it
// joins as a player would, then sends ClientUpdates made by hand (replayed,
// far ahead, far behind, never acknowledging) to see what the server does
// with a session that misbehaves. It counts the full states and updates the
// server sends it.
#include <cstdint>
#include <string>

#include "carom/client/connection.hpp"
#include "clock.hpp"

namespace carom::loadgen {

class Abuser {
  public:
    Abuser(std::uint16_t port, std::int32_t room, const std::string& name, bool spectator = false);
    ~Abuser();
    Abuser(const Abuser&) = delete;
    Abuser& operator=(const Abuser&) = delete;

    // The handshake, waiting up to 3 s.
    bool connect(const RunClock& clock);
    // Reads what the server sent; counts full states and updates.
    void drain(const RunClock& clock);
    // A ClientUpdate of the session, made by hand: `count` idle inputs from
    // sequence `first` on, and `ack`, with the session's proof.
    void send_input(std::uint32_t first, std::uint32_t count, std::uint64_t ack);

    bool connected() const { return connection_.state() == client::State::connected; }

    std::uint64_t full = 0, delta = 0, inputs_sent = 0, newest_tick = 0;
    std::uint64_t full_bytes = 0;  // datagram bytes of the full states

  private:
    int fd_;
    client::Connection connection_;
};

}  // namespace carom::loadgen
