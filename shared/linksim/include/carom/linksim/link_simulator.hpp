#pragma once
// One direction of a simulated link with the datagrams in flight: send()
// takes a copy, deliver() hands over those due. `Meta` travels with each
// datagram (a destination address, for a server that sends to many).
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "carom/linksim/link_model.hpp"

namespace carom::linksim {

template <class Meta = std::monostate>
class LinkSimulator {
  public:
    LinkSimulator(const LinkSpec& spec, std::uint64_t seed) : model_(spec, seed) {}

    void send(std::int64_t now_us, std::span<const std::uint8_t> bytes, const Meta& meta = {}) {
        const LinkModel::Fate fate = model_.send(now_us, bytes.size());
        for (std::size_t i = 0; i < fate.copies; ++i)
            flight_.emplace(fate.arrive_us[i],
                            Datagram{std::vector<std::uint8_t>(bytes.begin(), bytes.end()), meta});
    }

    // When the next datagram is due, if any is in flight.
    std::optional<std::int64_t> next_due_us() const {
        if (flight_.empty()) return std::nullopt;
        return flight_.begin()->first;
    }
    std::size_t in_flight() const { return flight_.size(); }

    // Hands every datagram due by `now_us`, in arrival order, as to(bytes, meta).
    template <class To>
    void deliver(std::int64_t now_us, To&& to) {
        while (!flight_.empty() && flight_.begin()->first <= now_us) {
            auto node = flight_.extract(flight_.begin());
            ++model_.stats().delivered;
            const Datagram& d = node.mapped();
            to(std::span<const std::uint8_t>(d.bytes), d.meta);
        }
    }

    const LinkSpec& spec() const { return model_.spec(); }
    const LinkStats& stats() const { return model_.stats(); }

  private:
    struct Datagram {
        std::vector<std::uint8_t> bytes;  // heap memory: aligned for FlatBuffers' verifier
        Meta meta;
    };
    LinkModel model_;
    std::multimap<std::int64_t, Datagram> flight_;  // equal times keep their send order
};

}  // namespace carom::linksim
