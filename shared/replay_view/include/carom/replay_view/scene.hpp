#pragma once
// What a replay viewer shows of the match at the seek engine's tick, for
// every viewer: the terminal's (carom-replay play and cast) and the page's
// (carom.h's carom_viewer_scene).
#include <optional>
#include <string>

#include "carom/render/render.hpp"
#include "carom/render/scene_builder.hpp"
#include "carom/replay_view/seek.hpp"
#include "carom/replay_view/takeover.hpp"

namespace carom::replay_view {

struct ViewOptions {
    std::optional<game::Slot> follow;  // drawn as "own" and named on the HUD
    bool roster = false;               // the names and goals over the arena
    render::Glyphs glyphs = render::Glyphs::braille;
};

// The match at the engine's tick as the renderer's scene (built by
// `builder`, valid until its next build): the HUD's banner is
// render::phase_banner() with the goal of the pause, its note names the
// followed player.
render::Scene build_scene(render::SceneBuilder& builder, const SeekEngine& engine,
                          const ViewOptions& options);

// The match of a takeover (takeover.hpp) as the renderer's scene: the taken
// player drawn as your own and named on the HUD ("you: NAME"), the banner
// of the branch's own goals; `options.follow` is ignored.
render::Scene build_scene(render::SceneBuilder& builder, const Takeover& takeover,
                          const ViewOptions& options);

// At the last tick of the file, what the viewer says over the arena: the
// final whistle (render::final_banner()) for a finished match; where and why
// a damaged file stops; "the file ends here, unfinished (left 1 : 0 right)".
// Elsewhere empty.
std::string end_banner(const SeekEngine& engine);

}  // namespace carom::replay_view
