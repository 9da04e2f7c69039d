// Replays: read and checked, stepped and sought through with the same
// re-simulation carom-replay uses, and verified against themselves.
#include <algorithm>
#include <string>

#include "api_support.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"
#include "handles.hpp"

namespace carom::capi {
namespace {

const replay::Replay& replay_of(const carom_replay* r) {
    return require(r, "replay")->replay;
}

// The view handle follows the re-simulation's match and its last events.
void show(carom_replay& r) {
    borrow(r.view, r.sim->match(), r.map_hash, r.sim->events());
}

// Starts the re-simulation over: from tick 0, or from a keyframe.
void restart(carom_replay& r, const replay::Keyframe* keyframe) {
    r.sim.reset();
    if (!r.map) r.map.emplace(r.replay.header.map);
    Result<replay::Resimulation> sim =
        keyframe != nullptr ? replay::Resimulation::from_keyframe(r.replay, *keyframe, &*r.map)
                            : replay::Resimulation::from_start(r.replay, &*r.map);
    if (!sim) throw Failure{CAROM_ERROR_DATA, sim.error().message};
    r.sim.emplace(std::move(*sim));
    show(r);
}

void step(carom_replay& r, std::uint64_t ticks, std::uint64_t* stepped) {
    std::uint64_t n = 0;
    for (; n < ticks && r.sim->tick() < r.replay.last_tick(); ++n) {
        // A tick the match refuses is not stepped: the replay stays before it.
        if (const auto hash = r.sim->step(); !hash) {
            show(r);
            if (stepped != nullptr) *stepped = n;
            throw Failure{CAROM_ERROR_DATA, hash.error().message};
        }
    }
    show(r);
    if (stepped != nullptr) *stepped = n;
}

// Goes to `tick` (within the first and the last: a branch starts past 0):
// from the newest keyframe at or before it, unless the match is already
// nearer (stepping on from where it is).
void seek(carom_replay& r, std::uint64_t tick) {
    const std::uint64_t target = std::clamp(tick, r.replay.first_tick(), r.replay.last_tick());
    const auto& keyframes = r.replay.keyframes;
    const auto after = std::partition_point(
        keyframes.begin(), keyframes.end(),
        [target](const replay::Keyframe& k) { return k.state.tick <= target; });
    const replay::Keyframe* nearest = after == keyframes.begin() ? nullptr : &*(after - 1);
    const std::uint64_t from = nearest != nullptr ? nearest->state.tick : 0;
    if (r.sim->tick() > target || r.sim->tick() < from) restart(r, nearest);
    step(r, target - r.sim->tick(), nullptr);
}

carom_status open(carom_replay** out, auto&& read) {
    return guarded([&] {
        require(out, "out");
        Result<replay::Replay> read_replay = read();
        if (!read_replay) throw Failure{CAROM_ERROR_DATA, read_replay.error().message};
        auto r = std::make_unique<carom_replay>();
        r->replay = std::move(*read_replay);
        r->map_hash = protocol::map_hash(r->replay.header.map);
        restart(*r, nullptr);
        *out = r.release();
    });
}

}  // namespace
}  // namespace carom::capi

using namespace carom;
using namespace carom::capi;

extern "C" {

carom_status carom_replay_open(const char* path, carom_replay** out) {
    return open(out, [&] { return replay::read_replay(readable_file(path)); });
}

carom_status carom_replay_open_bytes(const uint8_t* bytes, size_t size, carom_replay** out) {
    return open(out, [&] { return replay::read_replay({require(bytes, "bytes"), size}); });
}

void carom_replay_free(carom_replay* replay) {
    delete replay;
}

carom_status carom_replay_get_info(const carom_replay* replay, carom_replay_info* out) {
    return guarded([&] {
        const replay::Replay& r = replay_of(replay);
        carom_replay_info& i = *require(out, "out");
        i = {};
        i.format_version = r.header.format_version;
        i.core_version = r.header.core_version;
        copy_text(i.producer, r.header.producer);
        copy_text(i.map_name, r.header.map.name);
        i.seed = r.header.seed;
        i.ticks = r.last_tick();
        i.keyframes = static_cast<std::uint32_t>(r.keyframes.size());
        if (r.footer) {
            i.has_footer = 1;
            i.final_hash = r.footer->final_hash;
            i.score[0] = r.footer->score[0];
            i.score[1] = r.footer->score[1];
        }
        if (r.problem)
            copy_text(i.problem,
                      "at byte " + std::to_string(r.problem->offset) + ": " + r.problem->reason);
    });
}

carom_status carom_replay_map(const carom_replay* replay, carom_map** out) {
    return guarded([&] { *require(out, "out") = new_map(replay_of(replay).header.map); });
}

carom_status carom_replay_roster(const carom_replay* replay, carom_roster_entry* entries,
                                 size_t capacity, size_t* count) {
    return guarded([&] {
        const replay::Replay& r = replay_of(replay);
        std::vector<carom_roster_entry> all;
        all.reserve(r.header.players.size() + r.roster.size());
        for (const game::RosterEntry& p : r.header.players) {
            carom_roster_entry& e = all.emplace_back();
            e = {0, p.slot, 1, p.bot ? 1 : 0, {}};
            copy_text(e.name, p.name);
        }
        for (const game::RosterChange& c : r.roster) {
            carom_roster_entry& e = all.emplace_back();
            e = {c.tick, c.slot, c.join ? 1 : 0, c.bot ? 1 : 0, {}};
            copy_text(e.name, c.name);
        }
        fill(entries, capacity, count, all, [](const carom_roster_entry& e) { return e; });
    });
}

const carom_match* carom_replay_match(const carom_replay* replay) {
    return replay != nullptr ? &replay->view : nullptr;
}

carom_status carom_replay_step(carom_replay* replay, uint64_t ticks, uint64_t* stepped) {
    return guarded([&] { step(*require(replay, "replay"), ticks, stepped); });
}

carom_status carom_replay_seek(carom_replay* replay, uint64_t tick) {
    return guarded([&] { seek(*require(replay, "replay"), tick); });
}

carom_status carom_replay_match_at(carom_replay* replay, uint64_t tick, carom_match** out) {
    return guarded([&] {
        carom_replay& r = *require(replay, "replay");
        require(out, "out");
        if (tick > r.replay.last_tick())
            throw Failure{CAROM_ERROR_ARGUMENT, "tick " + std::to_string(tick) +
                                                    " is past the replay's last, " +
                                                    std::to_string(r.replay.last_tick())};
        if (tick < r.replay.first_tick())
            throw Failure{CAROM_ERROR_ARGUMENT, "tick " + std::to_string(tick) +
                                                    " is before the replay's start, " +
                                                    std::to_string(r.replay.first_tick())};
        seek(r, tick);
        // A fresh match on the replay's map and seed, in the re-simulation's
        // state: every bit that shapes the future, so it steps on exactly as
        // the recorded match did for as long as it is given the same inputs.
        auto handle = std::make_unique<carom_match>();
        handle->owned.emplace(*r.map, r.replay.header.seed);
        handle->owned->restore(r.sim->match().save());
        handle->match = &*handle->owned;
        handle->map_hash = r.map_hash;
        *out = handle.release();
    });
}

carom_status carom_replay_verify(const carom_replay* replay, carom_verify_result* out) {
    return guarded([&] {
        const replay::Replay& r = replay_of(replay);
        carom_verify_result& v = *require(out, "out");
        v = {};
        const replay::VerifyReport report = replay::verify(r);
        v.ticks = report.ticks;
        v.final_hash = report.final_hash;
        if (report.inconsistency) {
            copy_text(v.what, "cannot be played back: " + *report.inconsistency);
        } else if (report.divergence) {
            v.diverged = 1;
            v.divergence_tick = report.divergence->tick;
            copy_text(v.what, report.divergence->what);
        } else if (r.problem) {
            copy_text(v.what, "incomplete: the file stops at byte " +
                                  std::to_string(r.problem->offset) + ": " + r.problem->reason);
        } else if (!r.footer) {
            copy_text(v.what, "incomplete: no footer");
        } else {
            // verify() matched the footer's hash against the re-simulation's last state.
            v.ok = 1;
        }
    });
}
}
