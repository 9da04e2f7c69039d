#pragma once
// The kitty keyboard protocol (progressive enhancement: `CSI > flags u`),
// which kitty, foot, WezTerm, Ghostty and recent Alacritty speak: the
// terminal reports each key's press, repeat and release as an escape
// sequence, so a program knows how long a key was down. Others report
// presses alone (and key repeat while held).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace carom::terminal {

// A key as read, without ncurses' codes: each program maps it to its actions.
struct Key {
    enum class Kind : std::uint8_t { character, up, down, left, right, home, end, other };
    enum class Action : std::uint8_t { press, repeat, release };
    Kind kind = Kind::other;
    char32_t ch = 0;  // Kind::character: the character ('\t' for Tab), unshifted
    Action action = Action::press;
    bool ctrl = false;  // reported by the kitty protocol only
};

// Which keyboard a Terminal reads.
enum class Keyboard : std::uint8_t {
    automatic,  // the kitty protocol where the terminal says it speaks it
    kitty,      // the kitty protocol, without asking
    legacy,     // presses alone, as every terminal reports them
};

// "auto", "kitty" or "legacy" (a --keyboard option's values); nullopt otherwise.
std::optional<Keyboard> keyboard_named(std::string_view name);

// The flags carom pushes: disambiguate escape codes (1), report event types
// (2), report all keys as escape codes (8), so letters report releases too.
inline constexpr int kKittyFlags = 1 | 2 | 8;
inline constexpr std::string_view kKittyPush = "\x1b[>11u";
inline constexpr std::string_view kKittyPop = "\x1b[<u";

// Asks the terminal on the file descriptors `in` and `out` (a tty, in its
// own modes: they are set raw for the question and restored) whether it
// speaks the kitty keyboard protocol: `CSI ? u`, then the primary device
// attributes (`CSI c`), which every terminal answers. A reply to the first
// before the answer to the second is a yes; the second alone, or nothing
// within `timeout`, a no.
bool speaks_kitty_keyboard(int in, int out, std::chrono::milliseconds timeout);

// Turns the bytes a terminal speaking the protocol sends into keys: `CSI
// code ; mods:event u` and the cursor and editing keys' `CSI 1 ; mods:event
// A` forms. Bytes outside an escape sequence are keys pressed (a terminal
// may still send some text as text).
class KittyKeyParser {
  public:
    void feed(std::string_view bytes) { pending_ += bytes; }
    // The next key the bytes fed so far hold; nullopt when they hold no
    // more (an unfinished sequence waits for the rest).
    std::optional<Key> next();

  private:
    std::string pending_;
};

}  // namespace carom::terminal
