#include "carom/terminal/terminal.hpp"

#include <langinfo.h>
#include <ncursesw/curses.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <clocale>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace carom::terminal {
namespace {

// Colour pair numbers are the ink values; pair 0 is the terminal's default.
struct InkStyle {
    short colour;
    attr_t attributes;
};

InkStyle style_of(render::Ink ink) {
    switch (ink) {
        case render::Ink::wall:
            return {COLOR_WHITE, A_DIM};
        case render::Ink::goal_left:
        case render::Ink::team_left:
            return {COLOR_CYAN, A_BOLD};
        case render::Ink::goal_right:
        case render::Ink::team_right:
            return {COLOR_RED, A_BOLD};
        case render::Ink::puck:
            return {COLOR_YELLOW, A_BOLD};
        case render::Ink::own:
            return {COLOR_GREEN, A_BOLD};
        case render::Ink::alert:
            return {COLOR_YELLOW, A_BOLD | A_REVERSE};
        default:
            return {-1, A_NORMAL};
    }
}

// The terminal colour nearest to 0xRRGGBB: in the 6 x 6 x 6 cube of a
// 256-colour terminal, else one of the eight basic colours (a channel counts
// when it is at least half the strongest).
short nearest_colour(std::uint32_t rgb, int colours) {
    const int channel[3] = {static_cast<int>((rgb >> 16) & 0xFF),
                            static_cast<int>((rgb >> 8) & 0xFF), static_cast<int>(rgb & 0xFF)};
    if (colours >= 256) {
        static constexpr int kLevels[6] = {0, 95, 135, 175, 215, 255};  // xterm's cube
        int index = 0;
        for (const int c : channel) {
            int best = 0;
            for (int l = 1; l < 6; ++l)
                if (std::abs(kLevels[l] - c) < std::abs(kLevels[best] - c)) best = l;
            index = index * 6 + best;
        }
        return static_cast<short>(16 + index);
    }
    const int strongest = std::max({channel[0], channel[1], channel[2]});
    int basic = 0;  // curses numbers them red 1, green 2, blue 4
    for (int c = 0; c < 3; ++c)
        if (strongest > 0 && 2 * channel[c] >= strongest) basic |= 1 << c;
    return static_cast<short>(basic);
}

// How long a terminal gets to answer whether it speaks the kitty protocol.
constexpr std::chrono::milliseconds kKittyAnswerTimeout{300};

void write_all(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = write(STDOUT_FILENO, bytes.data(), bytes.size());
        if (n <= 0) return;  // nothing more can be done for a terminal that is gone
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

}  // namespace

Terminal::Terminal(bool force_ascii, Keyboard keyboard) {
    if (isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0)
        throw std::runtime_error("not a terminal");
    std::setlocale(LC_ALL, "");
    utf8_ = !force_ascii && std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    // Asked before ncurses reads the terminal: the answer must not reach it as keys.
    kitty_ = keyboard == Keyboard::kitty ||
             (keyboard == Keyboard::automatic &&
              speaks_kitty_keyboard(STDIN_FILENO, STDOUT_FILENO, kKittyAnswerTimeout));
    if (initscr() == nullptr) throw std::runtime_error("cannot initialise the terminal");
    set_up();
    if (kitty_) {
        typeahead(-1);  // the keys are read here: ncurses is not to look at them
        // Pushed once ncurses is on the alternate screen: its own stack of flags.
        write_all(kKittyPush);
    }
}

Terminal::Terminal(std::FILE* out, std::FILE* in, const char* term, bool utf8, int width,
                   int height)
    : utf8_(utf8) {
    screen_ = newterm(term, out, in);
    if (screen_ == nullptr)
        throw std::runtime_error(std::string("cannot open a screen for TERM=") + term);
    set_term(screen_);
    resizeterm(height, width);
    set_up();
}

void Terminal::set_up() {
    cbreak();  // keys at once; Ctrl-C still raises SIGINT
    noecho();
    nodelay(stdscr, TRUE);
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
        colour_ = true;
        start_color();
        use_default_colors();
        for (int i = 1; i < static_cast<int>(render::Ink::count_); ++i) {
            const InkStyle s = style_of(static_cast<render::Ink>(i));
            init_pair(static_cast<short>(i), s.colour, -1);
        }
    }
}

short Terminal::pair_of(std::uint32_t rgb, render::Ink ink) {
    const short colour = nearest_colour(rgb, COLORS);
    if (const auto it = rgb_pairs_.find(colour); it != rgb_pairs_.end()) return it->second;
    const auto pair = static_cast<int>(render::Ink::count_) + static_cast<int>(rgb_pairs_.size());
    if (pair >= COLOR_PAIRS) return static_cast<short>(ink);
    init_pair(static_cast<short>(pair), colour, -1);
    rgb_pairs_.emplace(colour, static_cast<short>(pair));
    return static_cast<short>(pair);
}

Terminal::~Terminal() {
    if (kitty_) write_all(kKittyPop);  // the screen's keyboard as it was
    endwin();
    if (screen_ != nullptr) delscreen(screen_);
}

int Terminal::width() const {
    return getmaxx(stdscr);
}

int Terminal::height() const {
    return getmaxy(stdscr);
}

void Terminal::draw(const render::Grid& grid) {
    for (int y = 0; y < grid.height(); ++y) {
        for (int x = 0; x < grid.width(); ++x) {
            const render::Cell c = grid.at(x, y);
            const InkStyle s = style_of(c.ink);
            wchar_t text[2] = {static_cast<wchar_t>(c.ch), L'\0'};
            cchar_t cc;
            const bool own_colour = colour_ && c.rgb != render::kInkColour;
            const short pair = !colour_     ? 0
                               : own_colour ? pair_of(c.rgb, c.ink)
                                            : static_cast<short>(c.ink);
            attr_t attributes = own_colour ? A_NORMAL : colour_ ? s.attributes : A_NORMAL;
            if (!colour_ && (c.ink == render::Ink::own || c.ink == render::Ink::alert))
                attributes = A_BOLD;
            setcchar(&cc, text, attributes, pair, nullptr);
            // The bottom-right cell cannot be written without scrolling: ncurses
            // reports an error there and draws it anyway.
            mvwadd_wch(stdscr, y, x, &cc);
        }
    }
    wnoutrefresh(stdscr);
    doupdate();
}

std::optional<Key> Terminal::kitty_key() {
    for (;;) {
        if (auto key = parser_.next()) {
            // Ctrl-C comes as a key under the protocol: it interrupts, as in cbreak mode.
            if (key->ctrl && key->ch == U'c') {
                if (key->action == Key::Action::press) std::raise(SIGINT);
                continue;
            }
            return key;
        }
        pollfd fd{STDIN_FILENO, POLLIN, 0};
        if (poll(&fd, 1, 0) <= 0) return std::nullopt;
        char buffer[256];
        const ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0) return std::nullopt;
        parser_.feed({buffer, static_cast<std::size_t>(n)});
    }
}

std::optional<Key> Terminal::key() {
    if (kitty_) return kitty_key();
    using Kind = Key::Kind;
    wint_t code = 0;
    switch (wget_wch(stdscr, &code)) {
        case ERR:
            return std::nullopt;
        case KEY_CODE_YES:
            switch (code) {
                case KEY_UP:
                    return Key{Kind::up};
                case KEY_DOWN:
                    return Key{Kind::down};
                case KEY_LEFT:
                    return Key{Kind::left};
                case KEY_RIGHT:
                    return Key{Kind::right};
                case KEY_HOME:
                    return Key{Kind::home};
                case KEY_END:
                    return Key{Kind::end};
                default:
                    return Key{Kind::other};  // KEY_RESIZE among them
            }
        default:
            return Key{Kind::character, static_cast<char32_t>(code)};
    }
}

}  // namespace carom::terminal
