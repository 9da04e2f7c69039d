#pragma once
// asciicast v2 (the format asciinema and its web player read): a JSON header
// line, then one `[seconds, "o", text]` line per frame. Frames are the replay
// viewer's grids (view.hpp), written as the terminal output that turns the
// previous frame into the next (cursor moves, colours, changed cells only).
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "view.hpp"

namespace carom::tool {

struct CastOptions {
    int width = 100;
    int height = 32;
    double speed = 1.0;      // match seconds per cast second
    double fps = 15.0;       // frames per cast second
    std::uint64_t from = 0;  // first tick
    ViewOptions view;
    double timestamp = 0.0;  // the header's (Unix time)
    std::string title;
};

struct CastFigures {
    std::uint64_t frames = 0;
    double seconds = 0.0;  // the cast's duration
};

// The header line's JSON (without the newline).
std::string cast_header(const CastOptions& options);

// The terminal output that turns `previous` (nullptr: an unknown screen) into `next`.
std::string frame_output(const render::Grid* previous, const render::Grid& next);

// Where frame `index` stands on the replay's virtual timeline.
std::uint64_t cast_position(const CastOptions& options, std::uint32_t tick_rate,
                            std::uint64_t index);

// Writes the whole cast: frames from `from` to the end of the timeline.
// The error, as SeekEngine::seek's, when the file asks for something the match refuses.
Result<CastFigures> write_cast(const replay::Replay& replay, const CastOptions& options,
                               std::ostream& out);

}  // namespace carom::tool
