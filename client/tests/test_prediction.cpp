// Prediction and interpolation over a simulated link (150 ms round trip, 5 %
// loss each way) against a real Server in the same process. Seeds are
// printed; CAROM_SEED=n runs one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

#include "prediction_probe.hpp"

namespace carom::play::test {

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
