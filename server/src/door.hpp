#pragma once
// A door into the server beside its UDP socket. The WebSocket door
// (web_door.hpp) runs on a thread of its own; the tick thread meets it only
// here: it drains what came in, and hands over what the server sent.
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
    // Tick thread: what send() queued since the last hand-over goes to the
    // door's thread (a lock, no system call), which sends it once woken by
    // start_delivery(). A tick hands over, and wakes the door's thread after
    // its work: waking a sleeping thread is a system call, and the woken
    // thread may take the core from the tick at once.
    virtual void hand_over() = 0;
    // Tick thread: the door's thread sends what was handed over (waking it
    // when it sleeps); nothing to do when nothing was handed over.
    virtual void start_delivery() = 0;
    void flush() {
        hand_over();
        start_delivery();
    }
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
