#include "carom/terminal/keyboard.hpp"

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <charconv>
#include <vector>

namespace carom::terminal {
namespace {

using Kind = Key::Kind;
using Action = Key::Action;

// The numbers of one parameter: "100:97" is {100, 97}; an empty one is {}.
std::vector<unsigned> numbers(std::string_view parameter) {
    std::vector<unsigned> out;
    while (!parameter.empty()) {
        const std::size_t colon = parameter.find(':');
        const std::string_view field = parameter.substr(0, colon);
        unsigned value = 0;
        std::from_chars(field.data(), field.data() + field.size(), value);
        out.push_back(value);
        if (colon == std::string_view::npos) break;
        parameter.remove_prefix(colon + 1);
    }
    return out;
}

// The key of a complete `CSI params final` sequence.
Key key_of(std::string_view params, char final) {
    std::vector<std::string_view> fields;
    while (true) {
        const std::size_t semicolon = params.find(';');
        fields.push_back(params.substr(0, semicolon));
        if (semicolon == std::string_view::npos) break;
        params.remove_prefix(semicolon + 1);
    }
    const std::vector<unsigned> code = numbers(fields[0]);
    const std::vector<unsigned> mods =
        fields.size() > 1 ? numbers(fields[1]) : std::vector<unsigned>{};
    Key key;
    // Modifiers are 1 + a bit mask (ctrl: 4); the event 1 press, 2 repeat, 3 release.
    key.ctrl = !mods.empty() && mods[0] > 0 && ((mods[0] - 1) & 4U) != 0;
    const unsigned event = mods.size() > 1 ? mods[1] : 1;
    key.action = event == 3 ? Action::release : event == 2 ? Action::repeat : Action::press;
    switch (final) {
        case 'A':
            key.kind = Kind::up;
            break;
        case 'B':
            key.kind = Kind::down;
            break;
        case 'C':
            key.kind = Kind::right;
            break;
        case 'D':
            key.kind = Kind::left;
            break;
        case 'H':
            key.kind = Kind::home;
            break;
        case 'F':
            key.kind = Kind::end;
            break;
        case 'u':
            if (!code.empty() && code[0] >= 0x20 && code[0] < 0xE000) {
                key.kind = Kind::character;  // text, and the space; the private use area is not
                key.ch = static_cast<char32_t>(code[0]);
            } else if (!code.empty() && (code[0] == 9 || code[0] == 13)) {
                key.kind = Kind::character;  // Tab and Enter as the characters they type
                key.ch = static_cast<char32_t>(code[0]);
            }
            break;
        default:
            break;  // '~' keys (insert, page up...) and the rest: other
    }
    return key;
}

}  // namespace

std::optional<Keyboard> keyboard_named(std::string_view name) {
    if (name == "auto") return Keyboard::automatic;
    if (name == "kitty") return Keyboard::kitty;
    if (name == "legacy") return Keyboard::legacy;
    return std::nullopt;
}

std::optional<Key> KittyKeyParser::next() {
    while (!pending_.empty()) {
        if (pending_[0] != '\x1b') {
            Key key{Kind::character, static_cast<unsigned char>(pending_[0]), Action::press, false};
            pending_.erase(0, 1);
            return key;
        }
        if (pending_.size() < 2) return std::nullopt;  // the rest is on its way
        if (pending_[1] != '[') {
            pending_.erase(0, 1);  // not a sequence of this protocol: dropped
            continue;
        }
        // CSI: parameter bytes (0x30-0x3F), intermediates (0x20-0x2F), a final (0x40-0x7E).
        std::size_t end = 2;
        while (end < pending_.size() && (static_cast<unsigned char>(pending_[end]) < 0x40 ||
                                         static_cast<unsigned char>(pending_[end]) > 0x7E))
            ++end;
        if (end == pending_.size()) {
            if (pending_.size() > 64) pending_.clear();  // no key is that long: garbage
            return std::nullopt;
        }
        const Key key = key_of(std::string_view(pending_).substr(2, end - 2), pending_[end]);
        pending_.erase(0, end + 1);
        return key;
    }
    return std::nullopt;
}

bool speaks_kitty_keyboard(int in, int out, std::chrono::milliseconds timeout) {
    termios saved{};
    if (tcgetattr(in, &saved) != 0) return false;
    termios raw = saved;
    raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(in, TCSANOW, &raw) != 0) return false;
    constexpr std::string_view kQuery = "\x1b[?u\x1b[c";
    bool speaks = false;
    if (write(out, kQuery.data(), kQuery.size()) == static_cast<ssize_t>(kQuery.size())) {
        std::string answer;
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (bool done = false; !done;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            pollfd fd{in, POLLIN, 0};
            if (left.count() <= 0 || poll(&fd, 1, static_cast<int>(left.count())) <= 0) break;
            char buffer[256];
            const ssize_t n = read(in, buffer, sizeof buffer);
            if (n <= 0) break;
            answer.append(buffer, static_cast<std::size_t>(n));
            // Each answer is `CSI ? ... u` or `CSI ? ... c`: the first final byte decides.
            for (std::size_t at = answer.find("\x1b[?"); at != std::string::npos;
                 at = answer.find("\x1b[?", at + 1)) {
                const std::size_t final = answer.find_first_of("uc", at + 3);
                if (final == std::string::npos) break;
                if (answer[final] == 'u') speaks = true;
                if (answer[final] == 'c') done = true;
            }
        }
    }
    tcsetattr(in, TCSANOW, &saved);
    return speaks;
}

}  // namespace carom::terminal
