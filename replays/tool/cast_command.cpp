// carom-replay cast: a replay as an asciicast v2 recording (cast.hpp).
#include <sys/stat.h>

#include <cstdio>
#include <fstream>

#include "carom/cli/cli.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/result.hpp"
#include "cast.hpp"
#include "commands.hpp"
#include "load.hpp"

namespace carom::tool {
namespace {

struct CastArgs {
    std::string file;
    std::string output;
    std::string size = "100x32";
    double speed = 1.0;
    double fps = 15.0;
    std::string from;
    std::optional<std::uint64_t> tick;
    std::string follow;
    bool ascii = false;
};

struct TerminalSize {
    int width = 0;
    int height = 0;
};

// --size: "WIDTHxHEIGHT", 20x8 to 1000x500.
Result<TerminalSize> parse_size(const std::string& text) {
    unsigned w = 0;
    unsigned h = 0;
    char end = '\0';
    if (std::sscanf(text.c_str(), "%ux%u%c", &w, &h, &end) != 2 || w < 20 || w > 1000 || h < 8 ||
        h > 500)
        return fail("--size " + text + ": want WIDTHxHEIGHT, 20x8 to 1000x500");
    return TerminalSize{static_cast<int>(w), static_cast<int>(h)};
}

int run_cast(const CastArgs& a) {
    CastOptions o;
    const auto size = parse_size(a.size);
    if (!size) {
        std::fprintf(stderr, "carom-replay cast: %s\n", size.error().message.c_str());
        return kExitUnreadable;
    }
    o.width = size->width;
    o.height = size->height;
    const auto replay = load(a.file);
    if (!replay) {
        std::fprintf(stderr, "carom-replay cast: %s\n", replay.error().message.c_str());
        return kExitUnreadable;
    }
    const std::uint32_t rate = replay->header.tick_rate;
    if (!a.from.empty()) {
        const auto t = parse_time(a.from, rate);
        if (!t) {
            std::fprintf(stderr, "carom-replay cast: --from %s: want SECONDS or M:SS\n",
                         a.from.c_str());
            return kExitUnreadable;
        }
        o.from = *t;
    }
    if (a.tick) o.from = *a.tick;
    if (!a.follow.empty()) {
        o.view.follow = find_player(*replay, a.follow);
        if (!o.view.follow) {
            std::fprintf(stderr, "carom-replay cast: --follow %s: no such player in %s\n",
                         a.follow.c_str(), a.file.c_str());
            return kExitUnreadable;
        }
    }
    o.speed = a.speed;
    o.fps = a.fps;
    o.view.glyphs = a.ascii ? render::Glyphs::ascii : render::Glyphs::braille;
    struct stat st {};
    if (stat(a.file.c_str(), &st) == 0) o.timestamp = static_cast<double>(st.st_mtime);
    o.title = "carom: " + game::printable_name(replay->header.map.name) + " (" + a.file + ")";
    if (replay->problem)
        std::fprintf(stderr, "carom-replay cast: %s: damaged, cast up to tick %llu (%s)\n",
                     a.file.c_str(), static_cast<unsigned long long>(replay->last_tick()),
                     describe(*replay->problem).c_str());

    std::ofstream out(a.output, std::ios::binary | std::ios::trunc);
    if (!out) {
        std::fprintf(stderr, "carom-replay cast: cannot write %s\n", a.output.c_str());
        return kExitUnreadable;
    }
    const Result<CastFigures> cast = write_cast(*replay, o, out);
    out.close();
    if (!cast) {
        std::fprintf(stderr, "carom-replay cast: %s: %s\n", a.file.c_str(),
                     cast.error().message.c_str());
        return kExitUnreadable;
    }
    const CastFigures& f = *cast;
    if (!out) {
        std::fprintf(stderr, "carom-replay cast: writing %s failed\n", a.output.c_str());
        return kExitUnreadable;
    }
    std::printf("%s: %llu frames, %.1f s at %gx, %dx%d\n", a.output.c_str(),
                static_cast<unsigned long long>(f.frames), f.seconds, o.speed, o.width, o.height);
    return kExitOk;
}

}  // namespace

Command add_cast(CLI::App& app) {
    auto args = std::make_shared<CastArgs>();
    CLI::App* sub = app.add_subcommand(
        "cast",
        "Write a replay as an asciicast v2 recording (asciinema play, the asciinema web player)");
    sub->add_option("file", args->file, "Replay file")->required();
    sub->add_option("-o,--output", args->output, "The .cast file to write")->required();
    sub->add_option("--size", args->size, "Terminal size WIDTHxHEIGHT")->capture_default_str();
    sub->add_option("--speed", args->speed, "Play speed (match seconds per second)")
        ->check(carom::cli::finite(0.25, 64.0))
        ->capture_default_str();
    sub->add_option("--fps", args->fps, "Frames per second")
        ->check(carom::cli::finite(1.0, 60.0))
        ->capture_default_str();
    sub->add_option("--from", args->from, "Start at this match time (SECONDS or M:SS)");
    sub->add_option("--tick", args->tick, "Start at this tick");
    sub->add_option("--follow", args->follow, "Mark this player");
    sub->add_flag("--ascii", args->ascii, "ASCII only (no braille)");
    sub->footer("Exit codes: 0 written, 2 unreadable file, bad arguments or a write error.");
    return {sub, [args] { return run_cast(*args); }};
}

}  // namespace carom::tool
