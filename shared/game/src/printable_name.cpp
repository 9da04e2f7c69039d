#include "carom/game/printable_name.hpp"

#include <cstdint>
#include <vector>

#include "carom/utf8.hpp"

namespace carom::game {
namespace {

bool is_control(char32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 ||
           cp == 0x2029 ||                    // line and paragraph separators
           (cp >= 0x202A && cp <= 0x202E) ||  // bidirectional embeddings and overrides
           (cp >= 0x2066 && cp <= 0x2069) ||  // bidirectional isolates
           cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0xFEFF;
}

// Skips an escape sequence that starts at text[i] (ESC, or a C1 introducer
// already decoded as `introducer`), leaving i after its last byte.
void skip_escape(std::string_view text, std::size_t& i, char32_t introducer) {
    char32_t kind = introducer;  // '[' for CSI, ']' 'P' '^' '_' 'X' for strings
    if (introducer == 0x1B) {
        if (i >= text.size()) return;
        kind = static_cast<unsigned char>(text[i]);
        ++i;
        if (kind != '[' && kind != ']' && kind != 'P' && kind != '^' && kind != '_' &&
            kind != 'X') {
            // ESC followed by intermediates (0x20..0x2F) and a final byte.
            while (kind >= 0x20 && kind <= 0x2F && i < text.size())
                kind = static_cast<unsigned char>(text[i++]);
            return;
        }
    } else {
        kind = introducer == 0x9B ? '[' : ']';
    }
    if (kind == '[') {
        // CSI: parameters and intermediates (0x20..0x3F), then a final byte 0x40..0x7E.
        while (i < text.size()) {
            const auto c = static_cast<unsigned char>(text[i++]);
            if (c < 0x20 || c > 0x3F) return;
        }
        return;
    }
    // A string (OSC, DCS, ...): up to BEL or ST (ESC \ or 0x9C).
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == 0x07) {
            ++i;
            return;
        }
        if (c == 0x1B) {
            i += (i + 1 < text.size() && text[i + 1] == '\\') ? 2u : 1u;
            return;
        }
        std::size_t next = i;
        if (decode_utf8(text, next) == 0x9C) {
            i = next;
            return;
        }
        i = next;
    }
}

}  // namespace

std::string printable_name(std::string_view raw, std::size_t max_chars) {
    // Code points first, so the cut never splits a character. Work is bounded
    // by the input, whose length the caller's limits bound.
    std::vector<char32_t> chars;
    std::size_t i = 0;
    while (i < raw.size() && chars.size() <= max_chars) {
        const char32_t cp = decode_utf8(raw, i);
        if (cp == 0x1B || cp == 0x9B || cp == 0x9D || cp == 0x90 || cp == 0x98 || cp == 0x9E ||
            cp == 0x9F) {
            skip_escape(raw, i, cp);
            chars.push_back('?');
        } else if (cp == kInvalidUtf8 || is_control(cp)) {
            chars.push_back('?');
        } else {
            chars.push_back(cp);
        }
    }
    const bool cut = chars.size() > max_chars;
    if (cut) chars.resize(max_chars >= 3 ? max_chars - 3 : 0);
    std::string out;
    out.reserve(chars.size() + 3);
    for (const char32_t cp : chars)
        append_utf8(out, cp);
    if (cut) out.append(max_chars >= 3 ? "..." : std::string(max_chars, '.'));
    return out;
}

}  // namespace carom::game
