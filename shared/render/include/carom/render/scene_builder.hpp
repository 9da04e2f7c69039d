#pragma once
// The one place a match becomes what the renderer draws. carom-client builds
// its copy of the room's match (the others interpolated, your disk
// predicted), carom-replay play and cast a replay's match at a tick: same
// disks, same inks, same order, same roster.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "carom/game/match.hpp"
#include "carom/render/scene.hpp"

namespace carom::render {

// Where to draw the disks when not where the match has them, numbered as the
// match numbers them: its pucks, its player slots, the map's movable discs.
struct Positions {
    std::vector<game::Vec2> pucks;
    std::vector<game::Vec2> players;
    std::vector<game::Vec2> discs;
};

// What to draw of a match, beyond the match itself.
// "kick-off" stays on the HUD this long after the whistle, on every screen.
inline constexpr std::uint64_t kKickoffShownTicks = game::kTickRate;

struct SceneRequest {
    // The disks' drawn positions; null, or lists of another size: the match's own.
    const Positions* positions = nullptr;
    // The followed player (you, or who the viewer follows): drawn in the
    // "own" ink, over anything it overlaps.
    std::optional<game::Slot> followed;
    // Where the followed player is drawn (the client's prediction); else
    // where the others are.
    std::optional<game::Vec2> followed_at;
    bool kickoff = false;  // the phase line says kick-off while playing
    bool roster = false;   // the names and goals over the arena
    // Whether a slot's player is a bot, for the roster (empty: none is).
    std::function<bool(game::Slot)> is_bot;
};

// A player's name as screens show it: printable, or "slot N" when empty.
std::string display_name(const game::Match& match, game::Slot slot);

// What every screen says over the phase (the HUD's banner: carom-client,
// carom-replay play and cast, the replay page, libcarom's scenes), one
// wording wherever the match comes from. The final whistle: "FINAL 3-2 left
// wins", "FINAL 2-2 DRAW".
std::string final_banner(std::uint32_t left, std::uint32_t right);
// During a goal's pause, that goal: "GOAL! ann", "GOAL! own goal by bob",
// "GOAL! left" (no one credited), or "GOAL!" when `goal` is null (who scored
// is not known yet); once the match is finished, final_banner(); else "".
std::string phase_banner(const game::Match& match, const game::MatchEvent* goal);

class SceneBuilder {
  public:
    // The match's map and disks (free slots are parked off the field: not
    // drawn), the HUD's score, clock and phase, the roster when asked. The
    // caller adds what only it knows (network figures, banner, note, help).
    // The scene points into this builder: valid until the next build().
    Scene build(const game::Match& match, const SceneRequest& request);

  private:
    std::vector<DiskView> disks_;
    std::vector<RosterLine> roster_;
};

}  // namespace carom::render
