#include "carom/replay/verify.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <span>
#include <utility>

#include "carom/replay/recorder.hpp"
#include "carom/replay/resimulation.hpp"

namespace carom::replay {
namespace {

std::optional<Divergence> compare_keyframe(const Keyframe& k, const game::Match& match,
                                           std::uint64_t simulated_hash) {
    const game::MatchState state = match.save();
    std::vector<FieldDiff> fields = diff_states(k.state, state);
    if (!k.world.empty()) {
        std::vector<FieldDiff> world = diff_world(k.world, match.world().hashed_values());
        fields.insert(fields.end(), world.begin(), world.end());
    }
    if (fields.empty() && k.hash == simulated_hash) return std::nullopt;
    Divergence d{k.state.tick, k.hash, simulated_hash, k.state.tick, std::move(fields), ""};
    d.what = d.fields.empty() ? "keyframe hash differs though its fields agree"
                              : "keyframe state differs from the re-simulation";
    return d;
}

std::string describe(const game::MatchEvent& e) {
    const auto slot = [](const std::optional<game::Slot>& s) {
        return s ? std::to_string(*s) : std::string("none");
    };
    switch (e.kind) {
        case game::MatchEvent::Kind::goal:
            return "goal for " + std::string(e.team == game::Team::left ? "left" : "right") +
                   " (puck " + std::to_string(e.puck) + ", scorer " + slot(e.scorer) +
                   ", own goal by " + slot(e.own_goal_by) + ")";
        case game::MatchEvent::Kind::kickoff:
            return "kick-off";
        case game::MatchEvent::Kind::end:
            return e.draw ? "end, a draw"
                          : "end, " + std::string(e.team == game::Team::left ? "left" : "right") +
                                " won";
    }
    return "unknown event";
}

bool same_event(const game::MatchEvent& a, const game::MatchEvent& b) {
    if (a.kind != b.kind || a.tick != b.tick) return false;
    switch (a.kind) {
        case game::MatchEvent::Kind::goal:
            return a.team == b.team && a.puck == b.puck && a.scorer == b.scorer &&
                   a.own_goal_by == b.own_goal_by;
        case game::MatchEvent::Kind::kickoff:
            return true;
        case game::MatchEvent::Kind::end:
            return a.draw == b.draw && (a.draw || a.team == b.team);
    }
    return false;
}

// A goal event as a core-1 recorder wrote it: the last kicker as the scorer, whatever his team.
game::MatchEvent as_core_1(game::MatchEvent e) {
    if (e.own_goal_by) e.scorer = std::exchange(e.own_goal_by, std::nullopt);
    return e;
}

// The events the file claims for `tick` against those the re-simulation made.
Status compare_events(std::span<const game::MatchEvent> recorded,
                      std::span<const game::MatchEvent> simulated, std::uint32_t core_version) {
    const std::size_t n = std::max(recorded.size(), simulated.size());
    for (std::size_t i = 0; i < n; ++i) {
        std::optional<game::MatchEvent> sim_event;
        if (i < simulated.size())
            sim_event = core_version < 2 ? as_core_1(simulated[i]) : simulated[i];
        if (i < recorded.size() && sim_event && same_event(recorded[i], *sim_event)) continue;
        const std::string file = i < recorded.size() ? describe(recorded[i]) : "nothing";
        const std::string sim = sim_event ? describe(*sim_event) : "nothing";
        return fail("event differs: the file says " + file + ", the re-simulation " + sim);
    }
    return {};
}

// The keyframes the writer promises (MatchRecorder): the start (tick 0, or
// a branch's start tick), every multiple of kKeyframeTicks after it, and the
// final tick of a finished file. A file that stops without a footer may
// lack the keyframe of its very last tick (killed between the tick's chunk
// and the keyframe's).
Status check_keyframe_schedule(const Replay& replay) {
    const std::uint64_t first = replay.first_tick();
    const std::uint64_t last = replay.last_tick();
    std::vector<std::uint64_t> expected{first};
    for (std::uint64_t t = (first / kKeyframeTicks + 1) * kKeyframeTicks; t <= last;
         t += kKeyframeTicks)
        expected.push_back(t);
    if (replay.footer && last % kKeyframeTicks != 0 && last != first) expected.push_back(last);
    const auto& keys = replay.keyframes;
    std::size_t required = expected.size();
    if (!replay.footer && expected.back() == last && keys.size() + 1 == expected.size())
        required = keys.size();
    for (std::size_t i = 0; i < std::max(keys.size(), required); ++i) {
        const std::string want =
            i < expected.size() ? "tick " + std::to_string(expected[i]) : std::string("none");
        const std::string have =
            i < keys.size() ? "tick " + std::to_string(keys[i].state.tick) : std::string("none");
        if (want == have) continue;
        return fail("keyframe " + std::to_string(i) +
                    " differs from the writer's schedule (the start, "
                    "every " +
                    std::to_string(kKeyframeTicks) + ", the final tick): the file has " + have +
                    ", expected " + want + " (" + std::to_string(keys.size()) +
                    " keyframes, expected " + std::to_string(required) + ")");
    }
    return {};
}

Outcome outcome_of(const game::Match& match) {
    if (match.phase() != game::Phase::finished) return Outcome::unfinished;
    const std::uint32_t left = match.score(game::Team::left);
    const std::uint32_t right = match.score(game::Team::right);
    if (left == right) return Outcome::draw;
    return left > right ? Outcome::left_won : Outcome::right_won;
}

// A match that starts from a state: the header's players are who hold its
// slots in the starting keyframe, each once, by name.
Status check_start_players(const Replay& replay, const game::Match& match) {
    if (replay.first_tick() == 0) return {};
    std::vector<bool> listed(match.slot_count());
    for (const game::RosterEntry& p : replay.header.players) {
        if (p.slot >= listed.size() || listed[p.slot] || !match.active(p.slot) ||
            match.name(p.slot) != p.name)
            return fail("header player \"" + p.name + "\" (slot " + std::to_string(p.slot) +
                        ") is not in the starting keyframe's match");
        listed[p.slot] = true;
    }
    for (game::Slot s = 0; s < listed.size(); ++s)
        if (match.active(s) && !listed[s])
            return fail("slot " + std::to_string(s) +
                        " plays in the starting keyframe, the header lists no one there");
    return {};
}

// Roster changes recorded after the last step (before a tick that never ran)
// are not applied by the re-simulation: each must still be possible.
Status check_trailing_roster(const Replay& replay, const game::Match& match) {
    std::vector<bool> active(match.slot_count());
    for (game::Slot s = 0; s < active.size(); ++s)
        active[s] = match.active(s);
    for (const game::RosterChange& c : replay.roster) {
        if (c.tick <= match.tick()) continue;
        if (c.tick != match.tick() + 1)
            return fail("roster change at tick " + std::to_string(c.tick) + " past the end (tick " +
                        std::to_string(match.tick()) + ")");
        if (c.slot >= active.size())
            return fail("roster change for slot " + std::to_string(c.slot) + " out of range");
        if (c.join == active[c.slot])
            return fail("roster: tick " + std::to_string(c.tick) + ": " +
                        (c.join ? "join into the taken slot " : "leave of the empty slot ") +
                        std::to_string(c.slot));
        active[c.slot] = c.join;
    }
    return {};
}

// The ticks a verification steps in all (twice the file's with the synctest), for progress.
std::uint64_t ticks_in_all(const Replay& replay, const VerifyOptions& options) {
    const std::uint64_t ticks = replay.last_tick() - replay.first_tick();
    return options.synctest ? 2 * ticks : ticks;
}

// The main pass's place in the file's keyframes, which it meets in order.
class KeyframeCursor {
  public:
    explicit KeyframeCursor(const std::vector<Keyframe>& keyframes) : keyframes_(keyframes) {}

    // The keyframes at the re-simulation's tick against its match (`hash`
    // its state hash): those that agree are counted in `agreed`, the first
    // that does not is returned.
    std::optional<Divergence> check(const Resimulation& sim, std::uint64_t hash,
                                    std::uint32_t& agreed) {
        for (; next_ < keyframes_.size() && keyframes_[next_].state.tick == sim.tick(); ++next_) {
            if (auto d = compare_keyframe(keyframes_[next_], sim.match(), hash)) return d;
            ++agreed;
        }
        return std::nullopt;
    }

    // Names in `d` the fields that differ at the nearest keyframe at or after
    // `tick`, stepping `sim` on to it (none there: `d` is left as it is).
    void name_fields(Resimulation& sim, std::uint64_t tick, Divergence& d) {
        for (; next_ < keyframes_.size(); ++next_) {
            const Keyframe& k = keyframes_[next_];
            if (k.state.tick < tick) continue;
            while (sim.tick() < k.state.tick)
                if (!sim.step()) return;  // the main pass reports why
            d.keyframe_tick = k.state.tick;
            d.fields = diff_states(k.state, sim.match().save());
            break;
        }
    }

  private:
    const std::vector<Keyframe>& keyframes_;
    std::size_t next_ = 0;
};

// The main pass: from tick 0 to the file's last, each tick's hash, events
// and keyframes against the file's; then no event of the file may be left
// over. Counts ticks and keyframes into `report`; the first divergence.
std::optional<Divergence> check_every_tick(const Replay& replay, const VerifyOptions& options,
                                           Resimulation& sim, VerifyReport& report) {
    const std::uint64_t last = replay.last_tick();
    KeyframeCursor keys(replay.keyframes);
    report.final_hash = sim.match().state_hash();
    if (auto d = keys.check(sim, report.final_hash, report.keyframes)) return d;
    const auto& events = replay.events;
    std::size_t next_event = 0;
    for (std::uint64_t tick = replay.first_tick() + 1; tick <= last; ++tick) {
        const Result<std::uint64_t> stepped = sim.step();
        if (!stepped) {
            report.inconsistency = stepped.error().message;
            return std::nullopt;
        }
        const std::uint64_t hash = *stepped;
        if (!replay.hash_agrees(tick, hash)) {
            Divergence d{tick, replay.hash_after(tick), replay.kept(hash), std::nullopt,
                         {},   "state hash differs"};
            d.hash_bits = replay.tick_hash_bits;
            keys.name_fields(sim, tick, d);
            return d;
        }
        const std::size_t first_event = next_event;
        while (next_event < events.size() && events[next_event].tick == tick)
            ++next_event;
        if (auto same =
                compare_events(std::span(events).subspan(first_event, next_event - first_event),
                               sim.events(), replay.header.core_version);
            !same)
            return Divergence{tick, hash, hash, std::nullopt, {}, same.error().message};
        if (auto d = keys.check(sim, hash, report.keyframes)) return d;
        report.ticks = tick - replay.first_tick();
        report.final_hash = hash;
        if (options.progress && tick % 4096 == 0)
            options.progress(tick - replay.first_tick(), ticks_in_all(replay, options));
    }
    if (next_event < events.size())
        return Divergence{last,
                          0,
                          0,
                          std::nullopt,
                          {},
                          "the file claims an event at tick " +
                              std::to_string(events[next_event].tick) + " that no step made"};
    return std::nullopt;
}

// The footer's final tick, score and result against the re-simulation's
// end: which differs first, or empty.
std::string footer_mismatch(const Footer& f, const game::Match& match, std::uint64_t last) {
    const std::array<std::uint32_t, 2> score{match.score(game::Team::left),
                                             match.score(game::Team::right)};
    std::string what;
    if (f.final_tick != last) {
        what = "footer final tick " + std::to_string(f.final_tick) +
               " differs from the re-simulation's " + std::to_string(last);
    } else if (f.score != score) {
        what = "footer score " + std::to_string(f.score[0]) + ":" + std::to_string(f.score[1]) +
               " differs from the re-simulation's " + std::to_string(score[0]) + ":" +
               std::to_string(score[1]);
    } else if (f.result != outcome_of(match)) {
        what = std::string("footer result ") + to_string(f.result) +
               " differs from the re-simulation's " + to_string(outcome_of(match));
    }
    return what;
}

// The footer against the re-simulation's end: its fields, then its hash,
// which is the full one of the last state (every tick's hash may keep only
// some of its bits), against the state's and the last tick's.
std::optional<Divergence> check_footer(const Replay& replay, const Footer& f,
                                       const game::Match& match) {
    const std::uint64_t last = replay.last_tick();
    if (std::string what = footer_mismatch(f, match, last); !what.empty()) {
        const std::uint64_t hash = match.state_hash();
        return Divergence{last, hash, hash, std::nullopt, {}, std::move(what)};
    }
    if (f.final_hash != match.state_hash())
        return Divergence{
            last,         f.final_hash, match.state_hash(),
            std::nullopt, {},           "footer hash differs from the re-simulation's"};
    if (last > replay.first_tick() && !replay.hash_agrees(last, f.final_hash)) {
        Divergence d{last,
                     replay.kept(f.final_hash),
                     replay.hash_after(last),
                     std::nullopt,
                     {},
                     "footer hash differs from the last tick's"};
        d.hash_bits = replay.tick_hash_bits;
        return d;
    }
    return std::nullopt;
}

// From each keyframe alone, the following stretch must hash the same:
// catches state that a keyframe or the hash leaves out. Counts the windows
// that agree in `windows`; the first divergence, or the error when a
// keyframe does not fit the match.
Result<std::optional<Divergence>> synctest(const Replay& replay, const VerifyOptions& options,
                                           std::uint32_t& windows) {
    const std::uint64_t last = replay.last_tick();
    const auto& keyframes = replay.keyframes;
    for (std::size_t k = 0; k < keyframes.size(); ++k) {
        const std::uint64_t from = keyframes[k].state.tick;
        const std::uint64_t to = k + 1 < keyframes.size() ? keyframes[k + 1].state.tick : last;
        Result<Resimulation> from_keyframe = Resimulation::from_keyframe(replay, keyframes[k]);
        if (!from_keyframe) return from_keyframe.error();
        Resimulation& window = *from_keyframe;
        for (std::uint64_t tick = from + 1; tick <= to; ++tick) {
            const Result<std::uint64_t> stepped = window.step();
            // A roster change the keyframe's match refuses: the keyframe disagrees.
            if (!stepped)
                return std::optional<Divergence>(
                    Divergence{tick, 0, 0, from, {}, "synctest: " + stepped.error().message});
            const std::uint64_t hash = *stepped;
            if (!replay.hash_agrees(tick, hash)) {
                Divergence d{tick, replay.hash_after(tick), replay.kept(hash), from, {}, ""};
                d.hash_bits = replay.tick_hash_bits;
                d.what = "synctest: re-simulated from the keyframe at tick " +
                         std::to_string(from) + " alone, the hash differs";
                return std::optional<Divergence>(std::move(d));
            }
            if (options.progress && tick % 4096 == 0)
                options.progress(last + tick - 2 * replay.first_tick(),
                                 ticks_in_all(replay, options));
        }
        ++windows;
    }
    return std::optional<Divergence>();
}

}  // namespace

VerifyReport verify(const Replay& replay, const VerifyOptions& options) {
    VerifyReport report;
    const std::uint64_t last = replay.last_tick();
    Result<Resimulation> start = Resimulation::from_start(replay);
    if (!start) {
        report.inconsistency = start.error().message;
        return report;
    }
    Resimulation& sim = *start;
    if (auto listed = check_start_players(replay, sim.match()); !listed) {
        report.divergence =
            Divergence{replay.first_tick(), 0, 0, std::nullopt, {}, listed.error().message};
        return report;
    }
    report.divergence = check_every_tick(replay, options, sim, report);
    if (report.divergence || report.inconsistency) return report;
    if (auto possible = check_trailing_roster(replay, sim.match()); !possible) {
        report.inconsistency = possible.error().message;
        return report;
    }
    if (auto kept = check_keyframe_schedule(replay); !kept) {
        report.divergence = Divergence{last, 0, 0, std::nullopt, {}, kept.error().message};
        return report;
    }
    if (replay.footer) report.divergence = check_footer(replay, *replay.footer, sim.match());
    if (report.divergence) return report;
    if (options.synctest) {
        Result<std::optional<Divergence>> synced =
            synctest(replay, options, report.synctest_windows);
        if (!synced) {
            report.inconsistency = synced.error().message;
            return report;
        }
        report.divergence = *synced;
    }
    if (report.divergence) return report;
    const std::uint64_t total = ticks_in_all(replay, options);
    if (options.progress) options.progress(total, total);
    return report;
}

}  // namespace carom::replay
