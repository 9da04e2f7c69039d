#pragma once
// Re-simulates a replay and checks it against itself: every tick's hash,
// every keyframe field by field, the footer; optionally a synctest that
// restarts from each keyframe alone.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "carom/replay/field_diff.hpp"
#include "carom/replay/replay.hpp"

namespace carom::replay {

struct Divergence {
    std::uint64_t tick = 0;  // first tick whose hash (or state) differs
    std::uint64_t recorded_hash = 0;
    std::uint64_t simulated_hash = 0;
    // Where the fields were compared: the nearest keyframe at or after `tick`.
    std::optional<std::uint64_t> keyframe_tick;
    std::vector<FieldDiff> fields;
    std::string what;  // one line: which check failed
    // The bits of the two hashes compared: 64, or a per-tick hash's kept
    // bits (Replay::tick_hash_bits).
    std::uint32_t hash_bits = 64;
};

struct VerifyOptions {
    bool synctest = false;
    // Called now and then with (ticks done, ticks in all); for progress bars.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

struct VerifyReport {
    std::uint64_t ticks = 0;  // ticks re-simulated and matched (a branch's from its start)
    // The state hash after the last of them (tick 0's state when none): a
    // file cut short has one though it has no footer.
    std::uint64_t final_hash = 0;
    std::uint32_t keyframes = 0;
    std::uint32_t synctest_windows = 0;
    std::optional<Divergence> divergence;
    std::optional<std::string> inconsistency;  // the replay cannot be played back
};

VerifyReport verify(const Replay& replay, const VerifyOptions& options = {});

}  // namespace carom::replay
