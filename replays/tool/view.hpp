#pragma once
// What the replay viewer shows at a position of a replay, as a grid of cells:
// the shared scene builder and renderer (HUD, arena) for the match at that tick, a help or
// message line and the timeline. Pure: `play` copies the grid to the
// terminal, `cast` writes it to an asciicast file, tests compare them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "carom/render/render.hpp"
#include "carom/render/scene_builder.hpp"
#include "seek.hpp"

namespace carom::tool {

struct ViewOptions {
    std::optional<game::Slot> follow;  // drawn as "own" and named on the HUD
    bool roster = false;               // the names and goals over the arena
    render::Glyphs glyphs = render::Glyphs::braille;
};

// Where playback stands; the timeline shows it.
struct Playback {
    // Virtual position in ticks: [0, last_tick + final pause]; the match shown is
    // at min(position, last_tick).
    std::uint64_t position = 0;
    std::uint64_t length = 0;  // last_tick + the final pause
    double speed = 1.0;
    bool paused = false;
    std::string help;  // the line above the timeline (keys, or a message); empty: none
};

// The match at the engine's tick as the renderer's scene (built by
// `builder`, valid until its next build), with the goal's scorer or the
// followed player on the HUD.
render::Scene build_scene(render::SceneBuilder& builder, const SeekEngine& engine,
                          const ViewOptions& options);

// Who scored, during the pause after a goal: "by ann", "own goal by bob";
// else empty.
std::string goal_note(const SeekEngine& engine);

// The final-whistle text ("FINAL  left 3 : 2 right  left won") when the
// engine is at the last tick of a finished match; for a file that stops
// early, where and why it stops; else empty.
std::string end_banner(const SeekEngine& engine);

// The whole frame: the scene rendered into the rows above the help line and
// the timeline, the banner over the arena at the end.
render::Grid compose(const SeekEngine& engine, const ViewOptions& options, const Playback& playback,
                     int width, int height);

// The timeline alone (the last row of compose()): state, time / length, a bar
// with the goals marked and the playhead, the speed.
void draw_timeline(const SeekEngine& engine, const Playback& playback, render::Grid& grid, int row);

// Length of the virtual timeline: the file's ticks, then the final whistle
// (the header's final_pause_ticks, at least one second) when the match finished.
std::uint64_t timeline_length(const replay::Replay& replay);

// The slot last named `name` (at the start or in a join), if any.
std::optional<game::Slot> find_player(const replay::Replay& replay, const std::string& name);

}  // namespace carom::tool
