#pragma once
// A Transport that sends through a simulated link (linksim), one per
// destination, each with its own seed stream: what the server sends waits in
// it until the caller's clock reaches its arrival. Datagrams the server
// receives can pass through a linksim::LinkSimulator of the caller's too.
#include <cstdint>
#include <map>
#include <optional>

#include "carom/linksim/link_simulator.hpp"
#include "transport.hpp"

namespace carom::server {

class SimulatedTransport final : public Transport {
  public:
    SimulatedTransport(Transport& inner, const linksim::LinkSpec& spec, std::uint64_t seed)
        : inner_(inner), spec_(spec), seed_(seed) {}

    void send(const Endpoint& to, std::span<const std::uint8_t> datagram) override {
        auto it = links_.find(to);
        if (it == links_.end())
            it = links_.emplace(to, Link(spec_, linksim::derive_seed(seed_, links_.size()))).first;
        it->second.send(now_us_, datagram);
    }

    // Moves the clock to `now_us` and hands what has arrived to the inner transport.
    void advance(std::int64_t now_us) {
        now_us_ = now_us;
        for (auto& entry : links_) {
            const Endpoint& to = entry.first;  // a named reference: clang 14 captures no bindings
            entry.second.deliver(now_us, [&](std::span<const std::uint8_t> bytes, std::monostate) {
                inner_.send(to, bytes);
            });
        }
    }

    std::optional<std::int64_t> next_due_us() const {
        std::optional<std::int64_t> due;
        for (const auto& [to, link] : links_)
            if (const auto d = link.next_due_us(); d && (!due || *d < *due)) due = d;
        return due;
    }

    // What the links to every destination did, summed.
    linksim::LinkStats stats() const {
        linksim::LinkStats sum;
        for (const auto& [to, link] : links_) {
            const linksim::LinkStats& s = link.stats();
            sum.sent += s.sent, sum.lost += s.lost, sum.overflowed += s.overflowed;
            sum.duplicated += s.duplicated, sum.reordered += s.reordered;
            sum.delivered += s.delivered;
        }
        return sum;
    }

  private:
    using Link = linksim::LinkSimulator<>;
    Transport& inner_;
    linksim::LinkSpec spec_;
    std::uint64_t seed_;
    std::int64_t now_us_ = 0;
    std::map<Endpoint, Link> links_;  // ordered: the seeds follow first contact, not hashing
};

}  // namespace carom::server
