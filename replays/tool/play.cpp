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
#include <filesystem>
#include <optional>
#include <vector>

#include "carom/cli/cli.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/play/held_keys.hpp"
#include "carom/replay/file_hash.hpp"
#include "carom/replay_view/takeover.hpp"
#include "carom/terminal/steer_key.hpp"
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

constexpr char32_t kEscape = 27;

// The key that picks the i-th player of a list (1-9, then a-z).
char pick_key(std::size_t i) {
    return i < 9 ? static_cast<char>('1' + i) : static_cast<char>('a' + (i - 9));
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
    std::string others = "bot";
    std::string branch_dir = ".";
    std::string take;  // take over this player (name or slot) at once
};

// A new file for a branch of `parent` at `tick` taken by `slot`, in `dir`:
// PARENT-tTICK-sSLOT.crpl, then -2, -3... when taken.
std::filesystem::path branch_path(const std::string& dir, const std::string& parent,
                                  std::uint64_t tick, game::Slot slot) {
    const std::string stem = std::filesystem::path(parent).stem().string() + "-t" +
                             std::to_string(tick) + "-s" + std::to_string(slot);
    std::filesystem::path path = std::filesystem::path(dir) / (stem + ".crpl");
    for (int n = 2; std::filesystem::exists(path); ++n)
        path = std::filesystem::path(dir) / (stem + "-" + std::to_string(n) + ".crpl");
    return path;
}

// The player `who` names at `tick` (a name, or a slot number), or why none.
Result<game::Slot> player_named(const replay::Replay& r, std::uint64_t tick,
                                const std::string& who) {
    const auto roster = replay_view::roster_at(r, tick);
    for (const game::RosterEntry& p : roster)
        if (p.name == who) return p.slot;
    if (!who.empty() && who.find_first_not_of("0123456789") == std::string::npos &&
        who.size() < 4) {
        const auto slot = static_cast<game::Slot>(std::stoul(who));
        if (Status possible = replay_view::can_take_over(r, tick, slot); !possible)
            return possible.error();
        return slot;
    }
    return fail("nobody called " + who + " plays at tick " + std::to_string(tick));
}

// Whether a person can take over in `r` at `tick` at all: the file reads
// whole (a branch names the file it was taken from) and the match is not over.
Status can_branch(const replay::Replay& r, const game::Match& match) {
    if (r.problem) return fail("the replay is damaged " + describe(*r.problem));
    if (match.phase() == game::Phase::finished)
        return fail("the match is over at tick " + std::to_string(match.tick()));
    return {};
}

std::string stop_note(const replay::Replay& r) {
    return "damaged file: plays to " + clock_text(r.last_tick(), r.header.tick_rate) + " (tick " +
           std::to_string(r.last_tick()) + "), then " + describe(*r.problem);
}

// Taking over a player: the match steps on at the tick rate with the keys
// of carom-client for the taken slot, and what is played is recorded as a
// branch of the replay.
class TakeoverSession {
    static play::HoldConfig hold_config(const terminal::Terminal& terminal) {
        play::HoldConfig config;
        config.releases = terminal.reports_releases();
        return config;
    }

  public:
    TakeoverSession(replay_view::Takeover takeover, const terminal::Terminal& terminal,
                    std::string parent_name)
        : takeover_(std::move(takeover)),
          keys_(hold_config(terminal)),
          parent_name_(std::move(parent_name)) {}

    replay_view::Takeover& takeover() { return takeover_; }
    void press(play::Key key, std::uint64_t now_ms) { keys_.press(key, now_ms); }
    void release(play::Key key) { keys_.release(key); }

    // Steps the ticks due by `now_ms` (at most a second's worth: a stalled
    // terminal does not make the match race); the write error, if any.
    Status advance(std::uint64_t now_ms) {
        if (!started_ms_) started_ms_ = now_ms;
        const std::uint64_t due = (now_ms - *started_ms_) * game::kTickRate / 1000;
        if (due > ticks_ + game::kTickRate) ticks_ = due - game::kTickRate;
        for (; ticks_ < due; ++ticks_) {
            const game::Input input = keys_.input(now_ms);
            if (takeover_.match().phase() == game::Phase::finished) continue;
            if (Status stepped = takeover_.step(input); !stepped) return stepped;
        }
        return {};
    }

    render::Grid frame(int width, int height, const ViewOptions& view) {
        const replay_view::Takeover& t = takeover_;
        const game::Match& m = t.match();
        render::Grid grid(width, height);
        if (width < 4 || height < 5) return grid;
        const render::Grid top =
            render::render(build_scene(scenes_, t, view), width, height - 2, view.glyphs);
        for (int y = 0; y < top.height(); ++y)
            for (int x = 0; x < width; ++x)
                grid.set(x, y, top.at(x, y));
        grid.put(0, height - 2,
                 "TAKEN OVER: WASD/arrows move  space kick  Tab names  Esc back to the replay  q "
                 "quit",
                 render::Ink::alert);
        const std::uint64_t played = m.tick() - t.start_tick();
        std::string status = "branch of " + parent_name_ + " at tick " +
                             std::to_string(t.start_tick()) + "  tick " + std::to_string(m.tick()) +
                             " (+" + clock_text(played, game::kTickRate) + ")  others: ";
        status += t.playing_recorded() ? "recorded" : "bot";
        if (m.phase() == game::Phase::finished) status += "  match over: Esc";
        grid.put(0, height - 1, status, render::Ink::text);
        return grid;
    }

  private:
    replay_view::Takeover takeover_;
    play::HeldKeys keys_;
    std::string parent_name_;
    std::optional<std::uint64_t> started_ms_;  // when the takeover began
    std::uint64_t ticks_ = 0;                  // ticks stepped (or skipped) since
    render::SceneBuilder scenes_;
};

int run_play(const PlayArgs& a) {
    const auto replay = load(a.file);
    if (!replay) {
        std::fprintf(stderr, "carom-replay play: %s\n", replay.error().message.c_str());
        return kExitUnreadable;
    }
    const std::uint32_t rate = replay->header.tick_rate;
    std::uint64_t start = replay->first_tick();
    if (!a.from.empty()) {
        const auto t = parse_time(a.from, rate);
        if (!t) {
            std::fprintf(stderr, "carom-replay play: --from %s: want SECONDS or M:SS\n",
                         a.from.c_str());
            return kExitUnreadable;
        }
        start = std::max(*t, start);
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
    const replay_view::Others others =
        a.others == "recorded" ? replay_view::Others::recorded : replay_view::Others::bot;
    SeekEngine engine(*replay);
    // --take: the takeover's every check before the terminal is taken.
    std::optional<game::Slot> take_at_once;
    if (!a.take.empty()) {
        if (start > replay->last_tick()) {
            std::fprintf(stderr,
                         "carom-replay play: --take: tick %llu is past the end of %s (its last "
                         "is %llu)\n",
                         static_cast<unsigned long long>(start), a.file.c_str(),
                         static_cast<unsigned long long>(replay->last_tick()));
            return kExitUnreadable;
        }
        if (Status sought = engine.seek(start); !sought) {
            std::fprintf(stderr, "carom-replay play: %s: %s\n", a.file.c_str(),
                         sought.error().message.c_str());
            return kExitUnreadable;
        }
        Status possible = can_branch(*replay, engine.match());
        Result<game::Slot> slot = player_named(*replay, start, a.take);
        if (possible && !slot) possible = slot.error();
        if (!possible) {
            std::fprintf(stderr, "carom-replay play: --take %s: %s: %s\n", a.take.c_str(),
                         a.file.c_str(), possible.error().message.c_str());
            return kExitUnreadable;
        }
        take_at_once = *slot;
        std::error_code error;
        if (!std::filesystem::is_directory(a.branch_dir, error)) {
            std::fprintf(stderr, "carom-replay play: --branch-dir %s: not a directory\n",
                         a.branch_dir.c_str());
            return kExitUnreadable;
        }
    }
    if (isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0) {
        std::fprintf(stderr,
                     "carom-replay play: needs a terminal (stdin and stdout). Without one, use\n"
                     "  carom-replay export %s        (the match as data), or\n"
                     "  carom-replay cast %s -o match.cast   (a recording to watch in asciinema)\n",
                     a.file.c_str(), a.file.c_str());
        return kExitUnreadable;
    }

    install_signal_handlers();
    PlaybackControl control(engine, timeline_length(*replay), start);
    const auto frame = std::chrono::microseconds(static_cast<std::int64_t>(1e6 / a.fps));
    std::string failure;
    std::vector<std::string> branches;  // the branch files written, in order
    std::optional<replay::FileHash> parent_hash;
    const std::string parent_name = std::filesystem::path(a.file).filename().string();
    {
        terminal::Terminal terminal(a.ascii, *terminal::keyboard_named(a.keyboard));
        view.glyphs = terminal.utf8() ? render::Glyphs::braille : render::Glyphs::ascii;
        const auto began = std::chrono::steady_clock::now();
        const auto now_ms = [&began] {
            return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                  std::chrono::steady_clock::now() - began)
                                                  .count());
        };
        auto last = began;
        pollfd input{STDIN_FILENO, POLLIN, 0};
        std::optional<TakeoverSession> session;
        std::string message;                      // over the help line, until the next key
        std::vector<game::RosterEntry> choosing;  // asking which player to take over
        const auto end_takeover = [&] {
            Result<replay::Footer> done = session->takeover().finish();
            branches.push_back(session->takeover().path().string());
            message = done ? "branch written: " + branches.back()
                           : "the branch could not be finished: " + done.error().message;
            control.jump_to(session->takeover().start_tick());
            if (!control.paused()) control.press(ViewKey::pause);
            session.reset();
        };
        const auto begin_takeover = [&](game::Slot slot) {
            if (Status possible = can_branch(*replay, engine.match()); !possible) {
                message = "cannot take over: " + possible.error().message;
                return;
            }
            if (!parent_hash) {
                auto hash = replay::file_hash(a.file);
                if (!hash) {
                    message = "cannot take over: " + hash.error().message;
                    return;
                }
                parent_hash = *hash;
            }
            const std::filesystem::path path =
                branch_path(a.branch_dir, a.file, engine.tick(), slot);
            auto takeover = replay_view::Takeover::start(
                *replay, replay::ParentReplay{*parent_hash, parent_name}, engine.match(), slot,
                others, path);
            if (!takeover) {
                message = "cannot take over: " + takeover.error().message;
                return;
            }
            session.emplace(std::move(*takeover), terminal, parent_name);
        };
        if (take_at_once) begin_takeover(*take_at_once);
        for (;;) {
            bool quit = false;
            while (const auto press = terminal.key()) {
                const bool character = press->kind == terminal::Key::Kind::character;
                if (session) {
                    const auto key = terminal::steer_key(*press);
                    if (press->action == terminal::Key::Action::release) {
                        if (key) session->release(*key);
                        continue;
                    }
                    if (character && (press->ch == 'q' || press->ch == 'Q')) quit = true;
                    if (character && press->ch == '\t') view.roster = !view.roster;
                    if (character && press->ch == kEscape) {
                        end_takeover();
                        continue;
                    }
                    if (press->action == terminal::Key::Action::repeat &&
                        terminal.reports_releases())
                        continue;
                    if (key) session->press(*key, now_ms());
                    continue;
                }
                if (press->action == terminal::Key::Action::release) continue;
                if (!choosing.empty()) {
                    // Which player: its key, or anything else to cancel.
                    for (std::size_t i = 0; character && i < choosing.size(); ++i)
                        if (press->ch == static_cast<char32_t>(pick_key(i)))
                            begin_takeover(choosing[i].slot);
                    choosing.clear();
                    continue;
                }
                message.clear();
                if (character && (press->ch == 'q' || press->ch == 'Q')) quit = true;
                if (character && press->ch == '\t') view.roster = !view.roster;
                if (character && (press->ch == 't' || press->ch == 'T')) {
                    const std::uint64_t tick = engine.tick();
                    if (view.follow &&
                        replay_view::can_take_over(*replay, tick, *view.follow).ok()) {
                        begin_takeover(*view.follow);
                    } else {
                        choosing = replay_view::roster_at(*replay, tick);
                        if (choosing.empty()) message = "nobody plays at this tick";
                    }
                    continue;
                }
                control.press(view_key(*press));
            }
            if (quit || g_signal != 0) break;
            const auto now = std::chrono::steady_clock::now();
            if (session) {
                if (Status stepped = session->advance(now_ms()); !stepped) {
                    message = "the branch stopped: " + stepped.error().message;
                    end_takeover();
                }
            }
            if (session) {
                last = now;
                terminal.draw(session->frame(terminal.width(), terminal.height(), view));
            } else {
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
                if (!choosing.empty()) {
                    playback.help = "take over:";
                    for (std::size_t i = 0; i < choosing.size(); ++i)
                        playback.help += std::string("  ") + pick_key(i) + " " +
                                         game::printable_name(choosing[i].name);
                    playback.help += "  (any other key: cancel)";
                } else if (!message.empty()) {
                    playback.help = message;
                }
                terminal.draw(compose(engine, view, playback, terminal.width(), terminal.height()));
            }
            const auto spent = std::chrono::steady_clock::now() - now;
            auto due = frame;
            if (session)
                due = std::min<std::chrono::microseconds>(
                    due, std::chrono::microseconds(1'000'000 / game::kTickRate));
            const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(due - spent);
            poll(&input, 1,
                 static_cast<int>(std::max<std::int64_t>(wait.count(), 0)));  // EINTR just loops
        }
        if (session) end_takeover();
    }  // the terminal is given back here, before anything is printed
    for (const std::string& b : branches)
        std::printf("branch: %s\n", b.c_str());
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
    sub->add_option("--others", args->others,
                    "While you take over a player (t): the others played by the game's bot, or "
                    "by their recorded inputs until the recording ends (then the bot)")
        ->check(CLI::IsMember({"bot", "recorded"}))
        ->capture_default_str();
    sub->add_option("--branch-dir", args->branch_dir,
                    "Where a takeover's branch replay is written (its path is printed on exit)")
        ->capture_default_str();
    sub->add_option(
        "--take", args->take,
        "Take over this player (name or slot) at once, at --tick/--from (or the start)");
    sub->footer(
        "Keys: space pause/resume; + - speed (0.25x to 16x); left/right -/+5 s; up/down -/+30 s;\n"
        "[ ] previous/next goal; , . one tick back/forward while paused; Home/End; Tab names; q "
        "quit;\n"
        "t take over the followed player (or pick one) at this tick and play on: WASD/arrows "
        "move,\n"
        "space kicks, Esc returns to the replay where you left it. What you play is written as "
        "a\n"
        "branch replay (PARENT-tTICK-sSLOT.crpl), its path printed on exit.\n"
        "Exit codes: 0 quit, 2 unreadable file, bad arguments or no terminal (use export or "
        "cast),\n"
        "a --take past the end, of a slot nobody holds or in a damaged file,\n"
        "128+N stopped by signal N.");
    return {sub, [args] { return run_play(*args); }};
}

}  // namespace carom::tool
