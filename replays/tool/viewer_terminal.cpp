#include "viewer_terminal.hpp"

#include <langinfo.h>
#include <ncursesw/curses.h>
#include <unistd.h>

#include <clocale>
#include <cstring>
#include <stdexcept>

namespace carom::tool {
namespace {

struct InkStyle {
    short colour;
    attr_t attributes;
};

// The client's colours (client/app/terminal.cpp), so a replay looks like the match.
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

}  // namespace

ViewerTerminal::ViewerTerminal(bool force_ascii) {
    if (isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0)
        throw std::runtime_error("not a terminal");
    std::setlocale(LC_ALL, "");
    utf8_ = !force_ascii && std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    if (initscr() == nullptr) throw std::runtime_error("cannot initialise the terminal");
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

ViewerTerminal::~ViewerTerminal() {
    endwin();
}

int ViewerTerminal::width() const {
    return getmaxx(stdscr);
}

int ViewerTerminal::height() const {
    return getmaxy(stdscr);
}

void ViewerTerminal::draw(const render::Grid& grid) {
    for (int y = 0; y < grid.height(); ++y) {
        for (int x = 0; x < grid.width(); ++x) {
            const render::Cell c = grid.at(x, y);
            const InkStyle s = style_of(c.ink);
            wchar_t text[2] = {static_cast<wchar_t>(c.ch), L'\0'};
            cchar_t cc;
            const short pair = colour_ ? static_cast<short>(c.ink) : 0;
            attr_t attributes = colour_ ? s.attributes : A_NORMAL;
            if (!colour_ && (c.ink == render::Ink::own || c.ink == render::Ink::alert))
                attributes = A_BOLD;
            setcchar(&cc, text, attributes, pair, nullptr);
            // The bottom-right cell reports an error (it would scroll) and is drawn anyway.
            mvwadd_wch(stdscr, y, x, &cc);
        }
    }
    wnoutrefresh(stdscr);
    doupdate();
}

std::optional<ViewKey> ViewerTerminal::key() {
    switch (const int k = wgetch(stdscr); k) {
        case ERR:
            return std::nullopt;
        case ' ': case 'p': case 'P':
            return ViewKey::pause;
        case '+': case '=':
            return ViewKey::faster;
        case '-': case '_':
            return ViewKey::slower;
        case KEY_LEFT:
            return ViewKey::back_5s;
        case KEY_RIGHT:
            return ViewKey::forward_5s;
        case KEY_UP:
            return ViewKey::back_30s;
        case KEY_DOWN:
            return ViewKey::forward_30s;
        case '[':
            return ViewKey::previous_goal;
        case ']':
            return ViewKey::next_goal;
        case ',': case '<':
            return ViewKey::tick_back;
        case '.': case '>':
            return ViewKey::tick_forward;
        case KEY_HOME: case 'g':
            return ViewKey::home;
        case KEY_END: case 'G':
            return ViewKey::end;
        case '\t':
            return ViewKey::roster;
        case 'q': case 'Q':
            return ViewKey::quit;
        default:
            return ViewKey::other;  // KEY_RESIZE among them: the next frame takes the new size
    }
}

}  // namespace carom::tool
