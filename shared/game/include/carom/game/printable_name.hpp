#pragma once
// Names that come from outside (a player's chosen name, a map's name) are
// cleaned before they reach a log line or a terminal, so that a name cannot
// move the cursor, recolour or clear a screen, forge a log line, or break a
// UTF-8 decoder. Use it on every name read from a file, a packet or a
// command line before printing or logging it (the server's join policy,
// protocol::clean_name, is stricter still: printable ASCII).
#include <cstddef>
#include <string>
#include <string_view>

namespace carom::game {

// At most this many characters (code points) survive cleaning.
inline constexpr std::size_t kPrintableNameChars = 64;

// The text of `raw` that is safe to print: valid UTF-8, no control
// characters, no escape sequences, at most `max_chars` code points.
//  - A terminal escape sequence (ESC or the C1 CSI/OSC/DCS introducers with
//    their parameters, up to the final byte, BEL or ST) becomes one '?'.
//  - Every other control character (C0, DEL, C1), line or paragraph
//    separator and bidirectional override becomes '?'.
//  - Each byte that is not part of valid UTF-8 (stray continuation, overlong
//    form, surrogate, beyond U+10FFFF, truncated sequence) becomes '?'.
//  - Longer results are cut to max_chars - 3 characters and "..."
// Printable ASCII and valid UTF-8 text pass unchanged.
std::string printable_name(std::string_view raw, std::size_t max_chars = kPrintableNameChars);

}  // namespace carom::game
