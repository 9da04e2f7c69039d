#pragma once
// Plays a replay's inputs back through a fresh Match, from tick 0 or from a
// keyframe alone, one tick at a time.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "carom/replay/replay.hpp"
#include "carom/result.hpp"

namespace carom::replay {

// The replay's start asks for something the match refuses: what the
// throwing constructors throw.
class InconsistentReplay : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class Resimulation {
  public:
    // From the start: the header's players join at tick 0, or a match that
    // starts from a state (Header::start_tick) restores its first keyframe. `map`, when
    // given, is the header's map already checked (a caller that restarts
    // often, like a seek, checks it once); else it is checked here. The
    // error when the header's map is not playable or the match refuses its
    // players.
    static Result<Resimulation> from_start(const Replay& replay,
                                           const game::CheckedMap* map = nullptr);
    // From a keyframe alone (synctest, seeking); the error when the header's
    // map is not playable or the keyframe's state does not fit it.
    static Result<Resimulation> from_keyframe(const Replay& replay, const Keyframe& keyframe,
                                              const game::CheckedMap* map = nullptr);
    // from_start() and from_keyframe(), throwing their error as InconsistentReplay.
    explicit Resimulation(const Replay& replay, const game::CheckedMap* map = nullptr);
    Resimulation(const Replay& replay, const Keyframe& keyframe,
                 const game::CheckedMap* map = nullptr);

    // Steps the next tick and returns the state hash after it; the error
    // (nothing stepped) when the file asks for something the match refuses
    // on that tick (a join into a taken slot, a leave of an empty one).
    Result<std::uint64_t> step();
    std::uint64_t tick() const { return match_.tick(); }
    const game::Match& match() const { return match_; }
    std::span<const game::MatchEvent> events() const { return events_; }

  private:
    // `match` at `held`'s inputs, after tick `after_tick` of the replay.
    Resimulation(const Replay& replay, game::Match match, std::vector<game::Input> held,
                 std::uint64_t after_tick);
    void seek_streams(std::uint64_t after_tick);

    const Replay& replay_;
    game::Match match_;
    std::vector<game::Input> held_;
    std::size_t next_input_ = 0;
    std::size_t next_roster_ = 0;
    std::span<const game::MatchEvent> events_;
};

}  // namespace carom::replay
