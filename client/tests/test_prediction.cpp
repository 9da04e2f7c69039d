// Prediction and interpolation over a simulated link (150 ms round trip, 5 %
// loss each way) against a real Server in the same process. Seeds are
// printed; CAROM_SEED=n runs one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

#include "lossy_link.hpp"

namespace carom::play::test {
namespace {

std::uint64_t seed_or(std::uint64_t fallback) {
    const char* s = std::getenv("CAROM_SEED");
    return s != nullptr ? std::strtoull(s, nullptr, 10) : fallback;
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
        const Session& s = world_.session();
        if (s.connection().state() != client::State::connected) return;
        const server::Session* ss = world_.server().session(s.connection().session().client_id);
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
        if (ss->inputs.repeated() != repeated_) clean_ = false;
        repeated_ = ss->inputs.repeated();
        // At rest on the spawn (join, kick-off): exactly what a snapshot says.
        if (own.velocity == game::Vec2{} && own.position == protocol::position_of(protocol::quantise(own.position, {})))
            clean_ = true;
        const std::uint32_t l = ss->inputs.last_applied_sequence();
        if (l != last_) {
            if (l != last_ + 1) clean_ = false;  // skipped inputs
            applied_[l] = {own.position, clean_, since_touch_, since_phase_};
            last_ = l;
        }
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
    void after_tick(const Session& s) {
        const Predictor* p = s.predictor();
        if (p == nullptr || !p->ready()) return;
        const std::uint32_t sequence = s.connection().next_sequence() - 1;
        predicted[sequence] = p->disk().position;
        drawn[sequence] = p->drawn_position();
    }
};

// Keys held as a player would: a direction for a second, then the next.
void steer(LossyWorld& w, std::int64_t& next_press_us) {
    static constexpr Key kPattern[][2] = {{Key::up, Key::count_},    {Key::right, Key::count_},
                                          {Key::down, Key::left},    {Key::left, Key::count_},
                                          {Key::up, Key::right},     {Key::down, Key::count_}};
    if (w.now_us() < next_press_us) return;
    next_press_us += 40'000;  // key repeat every 40 ms
    const auto phase = static_cast<std::size_t>(w.now_us() / 1'000'000) % std::size(kPattern);
    for (const Key k : kPattern[phase])
        if (k != Key::count_) w.session().press(k, w.now_ms());
}

}  // namespace

TEST_CASE("prediction_equals_the_server_bit_for_bit_while_nothing_touches_the_own_disk") {
    LinkConfig c;
    c.bots = false;  // only the pucks can touch us
    c.seed = seed_or(20261124);
    MESSAGE("seed " << c.seed);
    LossyWorld w(c);
    ServerSide server(w);
    ClientSide client;
    std::int64_t next_press = 0;
    w.run(60'000'000, [&] { server.after_tick(); }, [&] { client.after_tick(w.session()); },
          [&] { steer(w, next_press); });

    std::size_t compared = 0;
    std::size_t differ = 0;
    for (const auto& [sequence, applied] : server.applied()) {
        const auto p = client.predicted.find(sequence);
        if (!applied.clean || p == client.predicted.end()) continue;
        ++compared;
        if (p->second != applied.position) {
            ++differ;
            if (differ <= 5)
                MESSAGE("input " << sequence << ": predicted (" << p->second.x << ", " << p->second.y
                                 << "), server (" << applied.position.x << ", " << applied.position.y << ")");
        }
    }
    MESSAGE(compared << " of " << server.applied().size() << " inputs untouched; " << differ
                     << " predicted differently; loss " << w.down().lost() << "/" << w.down().sent()
                     << " down, " << w.up().lost() << "/" << w.up().sent() << " up");
    CHECK(w.down().lost() > 0);
    CHECK(compared >= 50);  // the test must not pass by comparing nothing
    CHECK(differ == 0);
}

TEST_CASE("prediction_converges_within_45_ticks_after_a_collision_with_another_player") {
    LinkConfig c;
    c.bots = true;
    c.bot_client = true;  // chases the puck among the bots: plenty of collisions
    c.seed = seed_or(77);
    MESSAGE("seed " << c.seed);
    LossyWorld w(c);
    ServerSide server(w);
    ClientSide client;
    w.run(60'000'000, [&] { server.after_tick(); }, [&] { client.after_tick(w.session()); });

    // 45 ticks (750 ms) after the last touch the drawn disk is within 1/16
    // unit of the server's: a round trip and a snapshot interval until the
    // touch shows, then the smoothing (a fifth of the gap a tick) closes the rest.
    constexpr std::uint64_t kConvergeTicks = 45;
    constexpr double kToleranceUnits = 1.0 / 16.0;
    std::size_t touches_followed = 0;
    std::size_t checked = 0;
    std::vector<double> errors;
    std::uint64_t previous_since = 0;
    for (const auto& [sequence, applied] : server.applied()) {
        if (applied.ticks_since_touch < previous_since) ++touches_followed;
        previous_since = applied.ticks_since_touch;
        const auto d = client.drawn.find(sequence);
        // A goal is another surprise (the server ignores inputs until the
        // kick-off); it is not what this test measures.
        if (applied.ticks_since_touch < kConvergeTicks ||
            applied.ticks_since_phase < kConvergeTicks || d == client.drawn.end())
            continue;
        ++checked;
        const double e = physics::length(d->second - applied.position);
        errors.push_back(e);
    }
    const PredictorStats& ps = w.session().predictor()->stats();
    MESSAGE("frames " << ps.frames << " agreed " << ps.exact << " corrected " << ps.corrections
                      << " snapped " << ps.snaps << " rejected " << ps.rejected);
    std::sort(errors.begin(), errors.end());
    const auto at = [&errors](double q) {
        return errors.empty() ? 0.0 : errors[static_cast<std::size_t>(q * static_cast<double>(errors.size() - 1))];
    };
    MESSAGE(touches_followed << " touches; " << checked << " inputs checked; error p50 " << at(0.5)
                             << ", p95 " << at(0.95) << ", worst " << at(1.0) << " units");
    CHECK(touches_followed >= 20);
    CHECK(checked >= 500);
    // Not every one: a kick-off the prediction places on the wrong tick can
    // leave a larger error for a moment (see the client README).
    CHECK(at(0.95) <= kToleranceUnits);
}

TEST_CASE("interpolated_disks_move_at_most_6_units_between_frames_at_30_fps") {
    LinkConfig c;
    c.bots = true;
    c.bot_client = true;
    c.seed = seed_or(4242);
    MESSAGE("seed " << c.seed);
    LossyWorld w(c);
    // 6 units a frame is 180 units/s: faster than a puck gets (a kick adds
    // 90 to what a player at 40 units/s can give it).
    constexpr double kMaxJumpUnits = 6.0;
    std::vector<game::Vec2> previous;
    std::uint64_t previous_teleports = 0;
    std::size_t frames = 0;
    std::size_t excused = 0;
    double worst = 0.0;
    std::int64_t next_frame = 0;
    w.run(60'000'000, {}, {}, [&] {
        if (w.now_us() < next_frame) return;
        next_frame += 1'000'000 / 30;
        const render::Scene scene = w.session().scene(w.now_ms(), false);
        const Interpolator* in = w.session().interpolator();
        if (in == nullptr) return;
        std::vector<game::Vec2> now;
        for (const render::DiskView& d : scene.disks)
            if (d.ink != render::Ink::own) now.push_back(d.position);
        const bool teleported = in->teleports() != previous_teleports;
        previous_teleports = in->teleports();
        if (now.size() == previous.size() && !previous.empty()) {
            ++frames;
            double jump = 0.0;
            for (std::size_t i = 0; i < now.size(); ++i)
                jump = std::max(jump, physics::length(now[i] - previous[i]));
            if (teleported) {
                ++excused;  // a kick-off puts disks back on their spawns
            } else {
                worst = std::max(worst, jump);
            }
        }
        previous = now;
    });
    MESSAGE(frames << " frames, " << excused << " with a kick-off, largest move " << worst
                   << " units; delay " << w.session().interpolator()->delay_ms() << " ms");
    CHECK(frames >= 1700);
    CHECK(excused < frames / 20);
    CHECK(worst <= kMaxJumpUnits);
}

}  // namespace carom::play::test
