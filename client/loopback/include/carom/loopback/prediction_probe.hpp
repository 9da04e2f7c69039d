#pragma once
// What the tests over the simulated link compare: the server's own copy of
// the client's disk after each input it applied, the client's prediction and
// drawn position for the same input, and keys held as a player would.
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <vector>

#include "carom/loopback/lossy_link.hpp"

namespace carom::play::test {

inline std::uint64_t seed_or(std::uint64_t fallback) {
    const char* s = std::getenv("CAROM_SEED");
    return s != nullptr ? std::strtoull(s, nullptr, 10) : fallback;
}

// The seeds a test runs: these, or only CAROM_SEED when it is set.
inline std::vector<std::uint64_t> seeds_or(std::initializer_list<std::uint64_t> seeds) {
    const char* s = std::getenv("CAROM_SEED");
    if (s != nullptr) return {std::strtoull(s, nullptr, 10)};
    return seeds;
}

// What the server did with one of our inputs.
struct Applied {
    game::Vec2 position;
    bool clean = false;  // since the disk last rested on its spawn: no touch, no repeated input
    std::uint64_t ticks_since_touch = 0;
    std::uint64_t ticks_since_phase = 0;  // a goal (inputs ignored) or a kick-off
};

// Follows the server's own copy of our disk, tick by tick.
class ServerSide {
  public:
    explicit ServerSide(LossyWorld& world) : world_(world) {}

    void after_tick() {
        const Player& s = world_.player();
        if (s.connection().state() != client::State::connected) return;
        const server::Session* ss = world_.server().session(s.connection().admission().client_id);
        if (ss == nullptr || !ss->slot) return;
        const game::Match& m = world_.server().room(ss->room).match();
        const game::Slot slot = *ss->slot;
        const physics::DiskState& own = m.player_disk(slot);
        if (touched(m, slot)) {
            clean_ = false;
            since_touch_ = 0;
        } else {
            ++since_touch_;
        }
        if (m.phase() != phase_) since_phase_ = 0;
        phase_ = m.phase();
        ++since_phase_;
        // A tick without a new input repeats the last: the client's own
        // input of that tick when it did not send it (it had not changed),
        // else that input was late.
        const client::Connection& c = s.connection();
        const bool repeated = ss->inputs.repeated() != repeated_;
        repeated_ = ss->inputs.repeated();
        bool stepped = false;  // an input of ours, applied or repeated, this tick
        if (repeated && last_ != 0) {
            const std::uint32_t next = effective_ + 1;
            if (c.sent(next) || next >= c.next_sequence()) {
                clean_ = false;
            } else {
                effective_ = next;
                stepped = true;
            }
        }
        // At rest (a join, a kick-off): nothing earlier can matter any more.
        if (own.velocity == game::Vec2{}) clean_ = true;
        const std::uint32_t l = ss->inputs.last_applied_sequence();
        if (l != last_) {
            if (l != effective_ + 1) clean_ = false;  // skipped inputs
            last_ = effective_ = l;
            stepped = true;
        }
        if (stepped) applied_[effective_] = {own.position, clean_, since_touch_, since_phase_};
    }
    const std::map<std::uint32_t, Applied>& applied() const { return applied_; }

  private:
    static bool touched(const game::Match& m, game::Slot slot) {
        const physics::DiskState& own = m.player_disk(slot);
        // A little slack: a contact within the tick may have ended apart.
        const auto near = [&own](const physics::DiskState& d) {
            const double reach = own.radius + d.radius + 0.5;
            return physics::length_squared(d.position - own.position) <= reach * reach;
        };
        for (std::uint32_t p = 0; p < m.puck_count(); ++p)
            if (near(m.puck_disk(p))) return true;
        for (game::Slot s = 0; s < m.slot_count(); ++s)
            if (s != slot && m.active(s) && near(m.player_disk(s))) return true;
        return false;
    }

    LossyWorld& world_;
    std::map<std::uint32_t, Applied> applied_;
    std::uint32_t last_ = 0;
    std::uint32_t effective_ = 0;  // the client's sequence whose input this tick stepped
    std::uint64_t repeated_ = 0;
    std::uint64_t since_touch_ = 0;
    std::uint64_t since_phase_ = 0;
    game::Phase phase_ = game::Phase::playing;
    bool clean_ = false;
};

// The prediction made for each input when it was sent, and where it was drawn.
struct ClientSide {
    std::map<std::uint32_t, game::Vec2> predicted;
    std::map<std::uint32_t, game::Vec2> drawn;
    void after_tick(const Player& s) {
        const Predictor* p = s.predictor();
        if (p == nullptr || !p->ready()) return;
        const std::uint32_t sequence = s.connection().next_sequence() - 1;
        predicted[sequence] = p->disk().position;
        drawn[sequence] = p->drawn_position();
    }
};

// Keys held as a player would: a direction for a second, then the next.
inline void steer(LossyWorld& w, std::int64_t& next_press_us) {
    static constexpr Key kPattern[][2] = {{Key::up, Key::count_}, {Key::right, Key::count_},
                                          {Key::down, Key::left}, {Key::left, Key::count_},
                                          {Key::up, Key::right},  {Key::down, Key::count_}};
    if (w.now_us() < next_press_us) return;
    next_press_us += 40'000;  // key repeat every 40 ms
    const auto phase = static_cast<std::size_t>(w.now_us() / 1'000'000) % std::size(kPattern);
    for (const Key k : kPattern[phase])
        if (k != Key::count_) w.player().press(k, w.now_ms());
}

}  // namespace carom::play::test
