#pragma once
// A replay as read into memory: the header, the inputs applied tick by tick,
// a state hash per tick, keyframes, events and the footer. File layout and
// versions: schemas/PROTOCOL.md.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/game/tick_log.hpp"

namespace carom::replay {

// The file format this build writes, and the newest it reads (every older
// one too). What each version changed: schemas/PROTOCOL.md, "Versions and
// evolution", as for kCoreVersion.
inline constexpr std::uint32_t kFormatVersion = 3;
// Bits of each tick's state hash a format 2 file keeps: a divergence is
// named at its first tick unless its hash agrees there by chance (1 in 64;
// then a tick or so later), and no tick is further than a keyframe (300
// ticks) from a full hash. 8 bits would make a 4 v 4 file 5 % larger than
// twice its input stream plus its keyframes (carom-bench replay).
inline constexpr std::uint32_t kTickHashBits = 6;
// The generation of the rules and physics. Bumped when a change alters how
// recorded matches play, or what they say of it; the corpus is re-recorded in
// the same change.
inline constexpr std::uint32_t kCoreVersion = 3;

// How a file of `core_version` hashes its states.
constexpr game::StaticsInHash statics_in_hash(std::uint32_t core_version) {
    return core_version < 3 ? game::StaticsInHash::streamed : game::StaticsInHash::folded;
}

// XXH3-128 of a whole replay file, in xxHash's canonical (big-endian) byte
// order: how a branch names its parent. It identifies a file, it does not
// authenticate one.
using FileHash = std::array<std::uint8_t, 16>;

// The replay a branch was taken from (format 3 on).
struct ParentReplay {
    FileHash hash{};
    std::string name;  // the parent's file name when the branch was made: a hint to find it
    friend bool operator==(const ParentReplay&, const ParentReplay&) = default;
};

// The largest start tick a file may claim (format 3 on): 580 years at 60 Hz,
// far past any match, so tick arithmetic never wraps.
inline constexpr std::uint64_t kMaxStartTick = std::uint64_t{1} << 40;

struct Header {
    std::uint32_t format_version = kFormatVersion;
    std::uint32_t core_version = kCoreVersion;
    std::string producer;
    game::Map map;
    std::uint32_t tick_rate = game::kTickRate;
    std::uint64_t seed = 0;
    // In the match at the start: tick 0, or a branch's start tick.
    std::vector<game::RosterEntry> players;
    // The final whistle: ticks the finished match was shown before the
    // room moved on (not part of the simulation; for viewers).
    std::uint32_t final_pause_ticks = 0;
    // Format 3 on. The tick the match starts after: 0, the map's kick-off with
    // `players` joined; past 0, the state of the file's first keyframe (of
    // this tick), which a branch took from its parent at that tick.
    std::uint64_t start_tick = 0;
    // Format 3 on: a branch names the replay it was taken from, at `start_tick`.
    std::optional<ParentReplay> parent;
};

// The input a slot holds from `tick` on (until its next change, or a join or
// leave, which reset it to idle).
struct InputChange {
    std::uint64_t tick = 0;
    game::Slot slot = 0;
    game::Input input;
};

struct Keyframe {
    std::uint64_t hash = 0;
    game::MatchState state;  // state.tick is the keyframe's tick
    // Tick 0 of core 3 on: the bits of physics::World::hashed_values(), for
    // naming differences outside the match state; empty otherwise.
    std::vector<std::uint64_t> world;
};

// How the match ended, as the footer records it.
enum class Outcome : std::uint8_t { left_won = 0, right_won = 1, draw = 2, unfinished = 3 };

struct Footer {
    std::uint64_t final_tick = 0;
    std::uint64_t final_hash = 0;
    std::array<std::uint32_t, 2> score{};
    Outcome result = Outcome::unfinished;
};

// Why reading stopped before the end of the file: what was read before it stays usable.
struct ReadProblem {
    std::uint64_t offset = 0;  // byte offset of the chunk (or field) at fault
    std::string reason;
};

// The bits of a state hash that a file keeping `bits` of each tick's hash holds.
constexpr std::uint64_t kept_bits(std::uint64_t hash, std::uint32_t bits) {
    return bits >= 64 ? hash : hash >> (64 - bits);
}

struct Replay {
    Header header;
    // How many bits of each tick's state hash `hashes` holds: 64 in format
    // 1, kTickHashBits in format 2 (the top ones).
    std::uint32_t tick_hash_bits = 64;
    // hashes[i]: of Match::state_hash() after tick first_tick() + i + 1
    std::vector<std::uint64_t> hashes;
    std::vector<InputChange> inputs;         // by tick, then slot
    std::vector<game::RosterChange> roster;  // by tick, in the order applied
    std::vector<game::MatchEvent> events;
    std::vector<Keyframe> keyframes;  // by tick
    std::optional<Footer> footer;
    std::optional<ReadProblem> problem;
    std::uint64_t file_size = 0;

    // The tick the match starts after (Header::start_tick): tick 0, or a branch's start.
    std::uint64_t first_tick() const { return header.start_tick; }
    std::uint64_t last_tick() const { return header.start_tick + hashes.size(); }
    // The hash recorded after `tick` (first_tick() + 1 .. last_tick()); the
    // index fits a size_t on 32-bit targets too, since the hashes are in memory.
    std::uint64_t hash_after(std::uint64_t tick) const {
        return hashes[static_cast<std::size_t>(tick - header.start_tick - 1)];
    }
    // The bits of `hash` this file keeps per tick, comparable with hash_after().
    std::uint64_t kept(std::uint64_t hash) const { return kept_bits(hash, tick_hash_bits); }
    // Whether a full state hash agrees with what the file holds for `tick`.
    bool hash_agrees(std::uint64_t tick, std::uint64_t hash) const {
        return hash_after(tick) == kept(hash);
    }
};

const char* to_string(Outcome outcome);
// A file hash as 32 lowercase hex digits.
std::string to_hex(const FileHash& hash);

}  // namespace carom::replay
