// carom-replay play: watch a replay in the terminal. One loop: keys move the
// playhead (PlaybackControl), the wall clock advances it at the play speed,
// the seek engine brings the match to its tick, and each frame is composed
// (view.hpp) and copied to the terminal. The terminal is given back on every
// exit path: q, a signal (SIGINT, SIGTERM, SIGHUP) and exceptions.
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>

#include "carom/cli/cli.hpp"
#include "carom/terminal/terminal.hpp"
#include "commands.hpp"
#include "load.hpp"
#include "view.hpp"

namespace carom::tool {
namespace {

// The viewer's keys (the help line, kViewerHelp, names them; Tab and q are
// the terminal's own: the names, quit).
ViewKey view_key(const terminal::Key& k) {
    using Kind = terminal::Key::Kind;
    switch (k.kind) {
        case Kind::left:
            return ViewKey::back_5s;
        case Kind::right:
            return ViewKey::forward_5s;
        case Kind::up:
            return ViewKey::back_30s;
        case Kind::down:
            return ViewKey::forward_30s;
        case Kind::home:
            return ViewKey::home;
        case Kind::end:
            return ViewKey::end;
        case Kind::other:
            return ViewKey::other;
        case Kind::character:
            break;
    }
    switch (k.ch) {
        case ' ':
        case 'p':
        case 'P':
            return ViewKey::pause;
        case '+':
        case '=':
            return ViewKey::faster;
        case '-':
        case '_':
            return ViewKey::slower;
        case '[':
            return ViewKey::previous_goal;
        case ']':
            return ViewKey::next_goal;
        case ',':
        case '<':
            return ViewKey::tick_back;
        case '.':
        case '>':
            return ViewKey::tick_forward;
        case 'g':
            return ViewKey::home;
        case 'G':
            return ViewKey::end;
        default:
            return ViewKey::other;
    }
}

volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_viewer_signal(int signal) {
    g_signal = signal;
}

void install_signal_handlers() {
    struct sigaction action {};
    action.sa_handler = on_viewer_signal;
    sigemptyset(&action.sa_mask);
    for (const int s : {SIGINT, SIGTERM, SIGHUP})
        sigaction(s, &action, nullptr);
}

// A damaged file says where it stops for this long after the start (and at its end).
constexpr double kProblemShownSeconds = 6.0;

struct PlayArgs {
    std::string file;
    std::string from;
    std::optional<std::uint64_t> tick;
    std::string follow;
    bool ascii = false;
    std::string keyboard = "auto";
    double fps = 30.0;
};

std::string stop_note(const replay::Replay& r) {
    return "damaged file: plays to " + clock_text(r.last_tick(), r.header.tick_rate) + " (tick " +
           std::to_string(r.last_tick()) + "), then " + describe(*r.problem);
}

int run_play(const PlayArgs& a) {
    const auto replay = load(a.file);
    if (!replay) {
        std::fprintf(stderr, "carom-replay play: %s\n", replay.error().message.c_str());
        return kExitUnreadable;
    }
    if (isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0) {
        std::fprintf(stderr,
                     "carom-replay play: needs a terminal (stdin and stdout). Without one, use\n"
                     "  carom-replay export %s        (the match as data), or\n"
                     "  carom-replay cast %s -o match.cast   (a recording to watch in asciinema)\n",
                     a.file.c_str(), a.file.c_str());
        return kExitUnreadable;
    }
    const std::uint32_t rate = replay->header.tick_rate;
    std::uint64_t start = 0;
    if (!a.from.empty()) {
        const auto t = parse_time(a.from, rate);
        if (!t) {
            std::fprintf(stderr, "carom-replay play: --from %s: want SECONDS or M:SS\n",
                         a.from.c_str());
            return kExitUnreadable;
        }
        start = *t;
    }
    if (a.tick) start = *a.tick;
    ViewOptions view;
    if (!a.follow.empty()) {
        view.follow = find_player(*replay, a.follow);
        if (!view.follow) {
            std::fprintf(stderr, "carom-replay play: --follow %s: no such player in %s\n",
                         a.follow.c_str(), a.file.c_str());
            return kExitUnreadable;
        }
    }

    install_signal_handlers();
    SeekEngine engine(*replay);
    PlaybackControl control(engine, timeline_length(*replay), start);
    const auto frame = std::chrono::microseconds(static_cast<std::int64_t>(1e6 / a.fps));
    std::string failure;
    {
        terminal::Terminal terminal(a.ascii, *terminal::keyboard_named(a.keyboard));
        view.glyphs = terminal.utf8() ? render::Glyphs::braille : render::Glyphs::ascii;
        const auto began = std::chrono::steady_clock::now();
        auto last = began;
        pollfd input{STDIN_FILENO, POLLIN, 0};
        for (;;) {
            bool quit = false;
            while (const auto press = terminal.key()) {
                if (press->action == terminal::Key::Action::release) continue;
                const bool character = press->kind == terminal::Key::Kind::character;
                if (character && (press->ch == 'q' || press->ch == 'Q')) quit = true;
                if (character && press->ch == '\t') view.roster = !view.roster;
                control.press(view_key(*press));
            }
            if (quit || g_signal != 0) break;
            const auto now = std::chrono::steady_clock::now();
            control.advance(std::chrono::duration<double>(now - last).count());
            last = now;
            if (Status sought = engine.seek(control.match_tick()); !sought) {
                failure = sought.error().message;
                break;
            }
            Playback playback{control.position(), control.length(), control.speed(),
                              control.paused(), kViewerHelp};
            const double elapsed = std::chrono::duration<double>(now - began).count();
            if (replay->problem &&
                (elapsed < kProblemShownSeconds || engine.tick() == engine.last_tick()))
                playback.help = stop_note(*replay);
            terminal.draw(compose(engine, view, playback, terminal.width(), terminal.height()));
            const auto spent = std::chrono::steady_clock::now() - now;
            const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(frame - spent);
            poll(&input, 1,
                 static_cast<int>(std::max<std::int64_t>(wait.count(), 0)));  // EINTR just loops
        }
    }  // the terminal is given back here, before anything is printed
    if (!failure.empty()) {
        std::fprintf(stderr, "carom-replay play: %s: %s\n", a.file.c_str(), failure.c_str());
        return kExitUnreadable;
    }
    if (replay->problem)
        std::fprintf(stderr, "carom-replay play: %s: %s\n", a.file.c_str(),
                     stop_note(*replay).c_str());
    if (g_signal != 0) {
        std::fprintf(stderr, "carom-replay play: stopped by signal %d\n",
                     static_cast<int>(g_signal));
        return 128 + g_signal;
    }
    return kExitOk;
}

}  // namespace

Command add_play(CLI::App& app) {
    auto args = std::make_shared<PlayArgs>();
    CLI::App* sub =
        app.add_subcommand("play", "Watch a replay in the terminal: pause, seek, speed");
    sub->add_option("file", args->file, "Replay file")->required();
    sub->add_option("--from", args->from, "Start at this match time (SECONDS or M:SS)");
    sub->add_option("--tick", args->tick, "Start at this tick");
    sub->add_option("--follow", args->follow, "Mark this player (drawn as your own disk)");
    sub->add_flag("--ascii", args->ascii, "ASCII only, even on a UTF-8 terminal");
    sub->add_option("--keyboard", args->keyboard,
                    "auto: the kitty keyboard protocol where the terminal speaks it (releases "
                    "are read and ignored); kitty: without asking; legacy: as every terminal")
        ->check(CLI::IsMember({"auto", "kitty", "legacy"}))
        ->capture_default_str();
    sub->add_option("--fps", args->fps, "Frames drawn per second")
        ->check(carom::cli::finite(1.0, 240.0))
        ->capture_default_str();
    sub->footer(
        "Keys: space pause/resume; + - speed (0.25x to 16x); left/right -/+5 s; up/down -/+30 s;\n"
        "[ ] previous/next goal; , . one tick back/forward while paused; Home/End; Tab names; q "
        "quit.\n"
        "Exit codes: 0 quit, 2 unreadable file, bad arguments or no terminal (use export or "
        "cast),\n"
        "128+N stopped by signal N.");
    return {sub, [args] { return run_play(*args); }};
}

}  // namespace carom::tool
