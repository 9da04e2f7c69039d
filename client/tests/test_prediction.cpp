// Prediction and interpolation over a simulated link (150 ms round trip, 5 %
// loss each way) against a real Server in the same process. Seeds are
// printed; CAROM_SEED=n runs one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>

#include "carom/loopback/prediction_probe.hpp"

namespace carom::play::test {

TEST_CASE("prediction_equals_the_server_bit_for_bit_while_nothing_touches_the_own_disk") {
    // Only from a rest on a spawn (join, kick-off) until something touches
    // the disk is the prediction exact; how long that lasts depends on where
    // the puck goes, so the comparisons are counted over all seeds.
    std::size_t compared_all = 0;
    for (const std::uint64_t seed : seeds_or({20261124, 1, 2, 3, 4, 5})) {
        LinkConfig c;
        c.bots = false;  // only the pucks can touch us
        c.seed = seed;
        LossyWorld w(c);
        ServerSide server(w);
        ClientSide client;
        std::int64_t next_press = 0;
        w.run(
            60'000'000, [&] { server.after_tick(); }, [&] { client.after_tick(w.player()); },
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
                    MESSAGE("input " << sequence << ": predicted (" << p->second.x << ", "
                                     << p->second.y << "), server (" << applied.position.x << ", "
                                     << applied.position.y << ")");
            }
        }
        MESSAGE("seed " << seed << ": " << compared << " of " << server.applied().size()
                        << " inputs untouched; " << differ << " predicted differently; loss "
                        << w.down().lost() << "/" << w.down().sent() << " down, " << w.up().lost()
                        << "/" << w.up().sent() << " up");
        CHECK(w.down().lost() > 0);
        CHECK(compared >= 1);  // each seed compares something: the join is a rest on a spawn
        CHECK(differ == 0);
        compared_all += compared;
    }
    CHECK(compared_all >= 100);  // the test must not pass by comparing nothing
}

TEST_CASE("prediction_converges_within_45_ticks_after_a_collision_with_another_player") {
    for (const std::uint64_t seed : seeds_or({77, 1, 2, 3, 4, 5})) {
        LinkConfig c;
        c.bots = true;
        c.bot_client = true;  // chases the puck among the bots: plenty of collisions
        c.seed = seed;
        LossyWorld w(c);
        ServerSide server(w);
        ClientSide client;
        w.run(
            60'000'000, [&] { server.after_tick(); }, [&] { client.after_tick(w.player()); });

        // 45 ticks (750 ms) after the last touch the drawn disk is within 1/16
        // unit of the server's: a round trip and an update interval until the
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
            errors.push_back(physics::length(d->second - applied.position));
        }
        const PredictorStats& ps = w.player().predictor()->stats();
        std::sort(errors.begin(), errors.end());
        const auto at = [&errors](double q) {
            return errors.empty() ? 0.0
                                  : errors[static_cast<std::size_t>(
                                        q * static_cast<double>(errors.size() - 1))];
        };
        MESSAGE("seed " << seed << ": frames " << ps.frames << " agreed " << ps.exact
                        << " corrected " << ps.corrections << " snapped " << ps.snaps << "; "
                        << touches_followed << " touches; " << checked
                        << " inputs checked; error p50 " << at(0.5) << ", p95 " << at(0.95)
                        << ", worst " << at(1.0) << " units");
        CHECK(touches_followed >= 20);
        CHECK(checked >= 500);
        CHECK(at(0.95) <= kToleranceUnits);
        // Not a lasting drift: a goal pause whose event was lost once left
        // the disk 55-60 units off for hundreds of inputs (seed 2).
        CHECK(at(1.0) <= 4.0);
    }
}

TEST_CASE("interpolated_disks_move_between_frames_no_farther_than_the_server_moved_them_lately") {
    for (const std::uint64_t seed : seeds_or({4242, 1, 2, 3, 4, 5})) {
        LinkConfig c;
        c.bots = true;
        c.bot_client = true;
        c.seed = seed;
        MESSAGE("seed " << c.seed);
        LossyWorld w(c);
        // The bound, disk by disk: what is drawn is about 150 ms old (the
        // link and the interpolation delay), so in one 33 ms frame a disk
        // moves no farther than the server moved it in 3 ticks (50 ms, for
        // the playout clock's steering) at some time in the last 500 ms,
        // plus a quarter unit (quantisation, extrapolation over a loss).
        constexpr std::size_t kWindowTicks = 30;
        constexpr double kSlackUnits = 0.25;
        std::deque<std::vector<game::Vec2>> recent;  // server positions, every entity, newest last
        double fastest = 0.0;
        const auto server_tick = [&] {
            if (w.server().room(0).asleep()) return;  // until the player comes in
            const game::Match& m = w.server().room(0).match();
            std::vector<game::Vec2> at;
            for (std::uint32_t p = 0; p < m.puck_count(); ++p)
                at.push_back(m.puck_disk(p).position);
            for (game::Slot s = 0; s < m.slot_count(); ++s)
                at.push_back(m.player_disk(s).position);
            recent.push_back(std::move(at));
            if (recent.size() > kWindowTicks) recent.pop_front();
        };
        // How far entity i went in 3 ticks at most, within the window (a
        // kick-off's or a join's jump of more than 20 units is not a move).
        const auto reach = [&recent](std::size_t i) {
            double r = 0.0;
            for (std::size_t t = 3; t < recent.size(); ++t) {
                const double d = physics::length(recent[t][i] - recent[t - 3][i]);
                if (d < 20.0) r = std::max(r, d);
            }
            return r;
        };
        std::vector<std::size_t> entity;  // of each drawn disk but ours
        std::vector<game::Vec2> previous;
        std::uint64_t previous_teleports = 0;
        std::size_t frames = 0;
        std::size_t excused = 0;
        double worst = 0.0;
        double worst_over = -1.0;  // the largest jump beyond its disk's bound
        std::int64_t next_frame = 0;
        w.run(60'000'000, server_tick, {}, [&] {
            if (w.now_us() < next_frame) return;
            next_frame += 1'000'000 / 30;
            const render::Scene scene = w.player().scene(w.now_ms(), false);
            const Interpolator* in = w.player().interpolator();
            const game::Match* copy = w.player().match();
            if (in == nullptr || copy == nullptr) return;
            const game::Match& m = w.server().room(0).match();
            const auto own = static_cast<game::Slot>(w.player().connection().admission().slot);
            std::vector<std::size_t> ids;
            for (std::uint32_t p = 0; p < m.puck_count(); ++p)
                ids.push_back(p);
            for (game::Slot s = 0; s < m.slot_count(); ++s)
                if (copy->active(s) && s != own) ids.push_back(m.puck_count() + s);
            std::vector<game::Vec2> now;
            for (const render::DiskView& d : scene.disks)
                if (d.ink != render::Ink::own) now.push_back(d.position);
            const bool teleported = in->teleports() != previous_teleports;
            previous_teleports = in->teleports();
            if (now.size() == previous.size() && ids == entity && now.size() == ids.size()) {
                ++frames;
                if (teleported) {
                    ++excused;  // a kick-off puts disks back on their spawns
                } else {
                    for (std::size_t i = 0; i < now.size(); ++i) {
                        const double jump = physics::length(now[i] - previous[i]);
                        const double bound = reach(ids[i]);
                        fastest = std::max(fastest, bound);
                        worst = std::max(worst, jump);
                        worst_over = std::max(worst_over, jump - bound);
                    }
                }
            }
            previous = now;
            entity = ids;
        });
        MESSAGE(frames << " frames, " << excused << " with a kick-off; largest move " << worst
                       << " units, the server's fastest 50 ms " << fastest
                       << " units; most beyond its disk's bound " << worst_over << " units; delay "
                       << w.player().interpolator()->delay_ms() << " ms");
        CHECK(frames >= 1700);
        CHECK(excused < frames / 20);
        CHECK(fastest > 1.0);  // the disks did move
        CHECK(worst_over <= kSlackUnits);
    }
}

}  // namespace carom::play::test
