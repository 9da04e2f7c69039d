#pragma once
// The replay viewer's frame as a grid of cells: the viewer's scene
// (shared/replay_view) rendered, a help or message line and the timeline.
// Pure: `play` copies the grid to the terminal, `cast` writes it to an
// asciicast file, tests compare them.
#include <cstdint>
#include <string>

#include "carom/render/render.hpp"
#include "carom/replay_view/control.hpp"
#include "carom/replay_view/scene.hpp"
#include "carom/replay_view/seek.hpp"

namespace carom::tool {

// The viewer's rules, as the tool names them.
using replay_view::build_scene;
using replay_view::clock_text;
using replay_view::end_banner;
using replay_view::find_player;
using replay_view::GoalMark;
using replay_view::parse_time;
using replay_view::PlaybackControl;
using replay_view::SeekEngine;
using replay_view::timeline_length;
using replay_view::ViewKey;
using replay_view::ViewOptions;

// The terminal's keys, as the help line names them (play.cpp maps them; Home/End
// are in its --help).
inline constexpr const char* kViewerHelp =
    "space pause  +/- speed  <-/-> 5s  up/down 30s  [ ] goals  , . tick  Tab names  t take over  "
    "q quit";

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

// The whole frame: the scene rendered into the rows above the help line and
// the timeline, end_banner() over the arena at the end.
render::Grid compose(const SeekEngine& engine, const ViewOptions& options, const Playback& playback,
                     int width, int height);

// The timeline alone (the last row of compose()): state, time / length, a bar
// with the goals marked and the playhead, the speed.
void draw_timeline(const SeekEngine& engine, const Playback& playback, render::Grid& grid, int row);

}  // namespace carom::tool
