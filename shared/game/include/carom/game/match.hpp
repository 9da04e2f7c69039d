#pragma once
// The match: two teams of disks steered by inputs, pucks, goals, score and
// clock, on top of a physics world. Deterministic: step() is a pure function
// of the match and the inputs of the tick, and state_hash() covers every bit
// that influences the future.
//
// Every disk is created when the match is: pucks first, then one disk per
// player slot, then the map's movable discs. An empty slot's disk is switched off (collides with
// nothing, parked outside the field), so joins and leaves never reshuffle the world and a saved
// state restores into a fresh match exactly.
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "carom/game/input.hpp"
#include "carom/game/map.hpp"
#include "carom/game/rng.hpp"
#include "carom/physics/world.hpp"
#include "carom/result.hpp"

namespace carom::game {

using Slot = std::uint32_t;

inline constexpr std::uint32_t kTickRate = 60;
// After a goal: the match goes on for this long (inputs ignored), then kick-off.
inline constexpr std::uint32_t kGoalPauseTicks = 2 * kTickRate;

enum class Phase : std::uint8_t { playing = 0, goal_pause = 1, finished = 2 };

struct MatchEvent {
    enum class Kind : std::uint8_t { goal = 0, kickoff = 1, end = 2 };
    Kind kind;
    std::uint64_t tick;  // the tick whose step produced it
    Team team;           // goal: the scoring team; end: the winner (unused on a draw)
    std::uint32_t puck;  // goal: the puck that scored
    // goal: the puck's last kicker when on the scoring team (credited with
    // the goal), else nothing.
    std::optional<Slot> scorer;
    bool draw;  // end only
    // goal: the puck's last kicker when on the conceding team (an own goal).
    std::optional<Slot> own_goal_by = std::nullopt;
};

// Where a disk is and how fast it moves: what a state keeps of it.
struct DiskMotion {
    Vec2 position;
    Vec2 velocity;
};

struct PlayerState {
    bool active = false;
    std::string name;
    Input last_input;
    std::uint32_t kick_cooldown = 0;
    std::uint32_t goals = 0;
    DiskMotion disk;
};

struct PuckState {
    DiskMotion disk;
    std::optional<Slot> last_kicker;
};

// Everything that a fresh Match(map, seed) needs to continue exactly where
// another one was: what keyframes store.
struct MatchState {
    std::uint64_t tick = 0;
    Phase phase = Phase::playing;
    std::uint32_t phase_ticks = 0;  // ticks left in the goal pause
    std::array<std::uint32_t, 2> score{};
    std::uint64_t rng = 0;
    // Maps with collision groups: the team kicking off, until a puck is
    // touched (and, in a goal pause, the team that will).
    std::optional<Team> kickoff_team;
    std::vector<PlayerState> players;
    std::vector<PuckState> pucks;
    std::vector<DiskMotion> discs;  // the map's movable discs, in its order
};

// How state_hash() takes in the map's static shapes: `folded` adds the
// world's statics digest (computed once per world), `streamed` every static
// field on every tick, as replays of core 1 and 2 were hashed. Both hash the
// same state; only the digests differ.
enum class StaticsInHash : std::uint8_t { streamed, folded };

// Ticks a match on `map` has left to play after its tick `tick`.
std::uint64_t ticks_left(const Map& map, std::uint64_t tick);

// A map validate() accepted, checked once and shared by every match played
// on it: a server room starts a match every few minutes on the same map, and
// the check (goal reachability above all) costs more than the match's start.
class CheckedMap {
  public:
    // Throws std::invalid_argument with "field: reason" when the map is not playable.
    explicit CheckedMap(Map map);
    // The map checked, or why it is not playable ("map NAME: field: reason").
    static Result<CheckedMap> check(Map map);
    const Map& get() const { return *map_; }

  private:
    explicit CheckedMap(std::shared_ptr<const Map> map) : map_(std::move(map)) {}
    std::shared_ptr<const Map> map_;
};

class Match {
  public:
    // Throws std::invalid_argument with "field: reason" when the map is not playable.
    Match(Map map, std::uint64_t seed, StaticsInHash statics_in_hash = StaticsInHash::folded);
    Match(CheckedMap checked, std::uint64_t seed,
          StaticsInHash statics_in_hash = StaticsInHash::folded);

    const Map& map() const { return map_.get(); }
    std::uint64_t seed() const { return seed_; }
    std::uint32_t slot_count() const { return static_cast<std::uint32_t>(players_.size()); }
    Team team_of(Slot slot) const;

    // The first free slot of the preferred team, else of the team with fewer
    // players (left on a tie); nullopt when the match is full.
    std::optional<Slot> free_slot(std::optional<Team> preferred = std::nullopt) const;
    // Between steps. join puts the player on its spawn; throws
    // std::invalid_argument when the slot is out of range or occupied (join)
    // or empty (leave).
    void join(Slot slot, std::string name);
    void leave(Slot slot);

    // One tick. `inputs[slot]` for every slot (size slot_count(); empty
    // slots' inputs are ignored). Returns the events of this tick.
    std::span<const MatchEvent> step(std::span<const Input> inputs);

    std::uint64_t tick() const { return tick_; }
    Phase phase() const { return phase_; }
    std::uint32_t score(Team team) const { return score_[index_of(team)]; }
    std::uint64_t ticks_left() const;
    bool active(Slot slot) const { return players_.at(slot).active; }
    const std::string& name(Slot slot) const { return players_.at(slot).name; }
    Input last_input(Slot slot) const { return players_.at(slot).last_input; }
    std::uint32_t goals(Slot slot) const { return players_.at(slot).goals; }
    const physics::DiskState& player_disk(Slot slot) const;
    std::uint32_t puck_count() const { return static_cast<std::uint32_t>(pucks_.size()); }
    const physics::DiskState& puck_disk(std::uint32_t puck) const;
    std::uint32_t disc_count() const { return static_cast<std::uint32_t>(discs_.size()); }
    const physics::DiskState& disc_disk(std::uint32_t disc) const;
    // The puck nearest to `point` within `within` (ties to the lower index,
    // carom/game/nearest.hpp); nullopt when none is that close.
    std::optional<std::uint32_t> nearest_puck(
        Vec2 point, double within = std::numeric_limits<double>::infinity()) const;
    const Goal& goal_of(Team defender) const;
    const physics::World& world() const { return world_; }

    MatchState save() const;
    // Throws std::invalid_argument when the state does not fit this map
    // (slot, puck or disc count) or holds non-finite values.
    void restore(const MatchState& state);

    std::uint64_t state_hash() const;

  private:
    struct Player {
        bool active = false;
        std::string name;
        Input last_input;
        std::uint32_t kick_cooldown = 0;
        std::uint32_t goals = 0;
        physics::BodyId body;
    };
    struct Puck {
        physics::BodyId body;
        std::optional<Slot> last_kicker;
    };

    void build_world();
    physics::Filter player_filter(Slot slot) const;
    void update_player_filters();
    void end_kickoff_when_touched();
    void apply_inputs(std::span<const Input> inputs);
    void kick(Slot slot);
    void detect_goals(std::span<const Vec2> before);
    void kickoff();
    // The random velocity a puck gets at kick-off, so no two kick-offs are alike.
    Vec2 kickoff_nudge();
    void finish();
    Vec2 spawn_of(Slot slot) const;
    Vec2 parking_of(Slot slot) const;

    CheckedMap map_;
    std::uint64_t seed_;
    StaticsInHash statics_in_hash_;
    physics::World world_;
    std::vector<Player> players_;
    std::vector<Puck> pucks_;
    std::vector<physics::BodyId> discs_;
    std::uint64_t tick_ = 0;
    Phase phase_ = Phase::playing;
    std::uint32_t phase_ticks_ = 0;
    std::array<std::uint32_t, 2> score_{};
    Rng rng_;
    std::optional<Team> kickoff_team_;
    std::vector<MatchEvent> events_;
    std::vector<Vec2> puck_positions_;  // scratch: pucks before the physics step
};

}  // namespace carom::game
