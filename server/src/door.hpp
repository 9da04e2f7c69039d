#pragma once
// A door into the server beside its UDP socket. The WebSocket door
// (web_door.hpp) runs on a thread of its own; the tick thread meets it only
// here: it drains what came in, and what the server sent goes out on flush().
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "transport.hpp"

namespace carom::server {

class Door : public Transport {
  public:
    using Handler = std::function<void(const Endpoint&, std::span<const std::uint8_t>)>;

    // Tick thread: hands at most `budget` waiting datagrams to `handler`,
    // oldest first, and says how many it handed.
    virtual std::size_t drain(std::size_t budget, const Handler& handler) = 0;
    // Tick thread: what send() queued since the last flush goes out.
    virtual void flush() = 0;
    // Called on the door's thread each time datagrams start waiting, so the
    // host wakes the tick thread to drain them (until then they wait for the
    // next drain). Once set_wake(nullptr) returns, the old one is not called.
    virtual void set_wake(std::function<void()> wake) = 0;
    // Tick thread: what send() handed to a peer the door no longer has.
    virtual std::uint64_t send_errors() const = 0;
};

// The server's one Transport over both doors: a peer's `link` says which.
class SplitTransport final : public Transport {
  public:
    SplitTransport(Transport& udp, Door* web) : udp_(udp), web_(web) {}
    void send(const Endpoint& to, std::span<const std::uint8_t> datagram) override {
        if (to.link == 0) {
            udp_.send(to, datagram);
        } else if (web_ != nullptr) {
            web_->send(to, datagram);
        }
    }

  private:
    Transport& udp_;
    Door* web_;
};

}  // namespace carom::server
