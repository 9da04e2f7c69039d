#include "cast.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <ostream>

namespace carom::tool {
namespace {

// SGR parameters of an ink, as the terminal client colours it.
const char* sgr_of(render::Ink ink) {
    switch (ink) {
        case render::Ink::wall:
            return "0;2;37";
        case render::Ink::goal_left:
        case render::Ink::team_left:
            return "0;1;36";
        case render::Ink::goal_right:
        case render::Ink::team_right:
            return "0;1;31";
        case render::Ink::puck:
            return "0;1;33";
        case render::Ink::own:
            return "0;1;32";
        case render::Ink::alert:
            return "0;1;33;7";
        default:
            return "0";
    }
}

// Runs of changed cells closer than this are written as one (a cursor move costs more).
constexpr int kMergeGap = 4;

}  // namespace

std::string cast_header(const CastOptions& options) {
    nlohmann::json header = {{"version", 2},
                             {"width", options.width},
                             {"height", options.height},
                             {"timestamp", static_cast<std::int64_t>(options.timestamp)},
                             {"env", {{"TERM", "xterm-256color"}, {"SHELL", "/bin/sh"}}}};
    if (!options.title.empty()) header["title"] = options.title;
    return header.dump();
}

std::string frame_output(const render::Grid* previous, const render::Grid& next) {
    std::string out;
    const bool full = previous == nullptr || previous->width() != next.width() ||
                      previous->height() != next.height();
    if (full) out += "\x1b[?25l\x1b[0m\x1b[2J";
    const char* current = nullptr;  // the SGR in effect (nullptr: unknown)
    for (int y = 0; y < next.height(); ++y) {
        int x = 0;
        while (x < next.width()) {
            const auto changed = [&](int c) { return full || previous->at(c, y) != next.at(c, y); };
            if (!changed(x)) {
                ++x;
                continue;
            }
            int end = x + 1;  // one past the run's last changed cell
            for (int c = end; c < next.width() && c < end + kMergeGap + 1; ++c)
                if (changed(c)) end = c + 1;
            out += "\x1b[" + std::to_string(y + 1) + ";" + std::to_string(x + 1) + "H";
            for (int c = x; c < end; ++c) {
                const render::Cell cell = next.at(c, y);
                const char* sgr = sgr_of(cell.ink);
                if (current == nullptr || std::strcmp(current, sgr) != 0) {
                    out += "\x1b[";
                    out += sgr;
                    out += "m";
                    current = sgr;
                }
                render::append_utf8(out, cell.ch);
            }
            x = end;
        }
    }
    if (current != nullptr && std::strcmp(current, "0") != 0) out += "\x1b[0m";
    return out;
}

std::uint64_t cast_position(const CastOptions& options, std::uint32_t tick_rate,
                            std::uint64_t index) {
    const double ticks = static_cast<double>(index) * options.speed * tick_rate / options.fps;
    return options.from + static_cast<std::uint64_t>(std::llround(ticks));
}

Result<CastFigures> write_cast(const replay::Replay& replay, const CastOptions& options,
                               std::ostream& out) {
    out << cast_header(options) << '\n';
    SeekEngine engine(replay);
    Playback playback;
    playback.length = timeline_length(replay);
    playback.speed = options.speed;
    render::Grid previous;
    CastFigures figures;
    for (std::uint64_t index = 0;; ++index) {
        playback.position =
            std::min(cast_position(options, replay.header.tick_rate, index), playback.length);
        if (Status sought = engine.seek(playback.position); !sought) return sought.error();
        const render::Grid grid =
            compose(engine, options.view, playback, options.width, options.height);
        const double seconds = std::round(static_cast<double>(index) / options.fps * 1e6) / 1e6;
        const std::string text = frame_output(index == 0 ? nullptr : &previous, grid);
        if (!text.empty()) out << nlohmann::json::array({seconds, "o", text}).dump() << '\n';
        previous = grid;
        figures.frames = index + 1;
        figures.seconds = seconds;
        if (playback.position >= playback.length) break;
    }
    return figures;
}

}  // namespace carom::tool
