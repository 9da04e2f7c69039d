#include "carom/stadium/json5.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "carom/utf8.hpp"

namespace carom::stadium {

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex_digit(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_identifier_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool is_identifier_part(char c) {
    return is_identifier_start(c) || is_digit(c);
}

int hex_value(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

// The byte offset of the first byte that is not well-formed UTF-8, or npos.
std::size_t first_invalid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t at = i;
        if (decode_utf8(s, i) == kInvalidUtf8) return at;
    }
    return std::string_view::npos;
}

class Reader {
  public:
    Reader(std::string_view text, const Json5Limits& limits) : text_(text), limits_(limits) {}

    Result<nlohmann::json> document() {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a byte order mark
        if (auto skipped = skip_space(); !skipped) return skipped.error();
        if (at_end()) return error("the text holds no value");
        auto root = value(0);
        if (!root) return root;
        if (auto skipped = skip_space(); !skipped) return skipped.error();
        if (!at_end()) return error("text after the value");
        return root;
    }

  private:
    bool at_end() const { return pos_ >= text_.size(); }
    char peek(std::size_t ahead = 0) const {
        return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
    }
    bool next_is(std::string_view word) const { return text_.substr(pos_, word.size()) == word; }

    Error error(const std::string& what) const { return error_at(pos_, what); }
    Error error_at(std::size_t offset, const std::string& what) const {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < offset && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                column = 1;
            } else if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) {
                ++column;  // a character, not a UTF-8 continuation byte
            }
        }
        return fail("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " +
                    what);
    }

    // A line terminator's length at the cursor (LF, CR, CR LF, U+2028, U+2029), or 0.
    std::size_t line_terminator() const {
        if (peek() == '\n') return 1;
        if (peek() == '\r') return peek(1) == '\n' ? 2 : 1;
        if (next_is("\xE2\x80\xA8") || next_is("\xE2\x80\xA9")) return 3;
        return 0;
    }

    // White space as JSON5 defines it (ECMAScript's, Unicode Zs included), or 0.
    std::size_t white_space() const {
        const char c = peek();
        if (c == ' ' || c == '\t' || c == '\v' || c == '\f') return 1;
        if (const std::size_t n = line_terminator(); n > 0) return n;
        static constexpr std::string_view kWide[] = {
            "\xC2\xA0",      // no-break space
            "\xEF\xBB\xBF",  // zero width no-break space (BOM)
            "\xE1\x9A\x80", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80",
        };
        for (std::string_view w : kWide)
            if (next_is(w)) return w.size();
        // U+2000 to U+200A.
        if (next_is("\xE2\x80") && static_cast<unsigned char>(peek(2)) >= 0x80 &&
            static_cast<unsigned char>(peek(2)) <= 0x8A)
            return 3;
        return 0;
    }

    Status skip_space() {
        while (!at_end()) {
            if (const std::size_t n = white_space(); n > 0) {
                pos_ += n;
            } else if (next_is("//")) {
                while (!at_end() && line_terminator() == 0)
                    ++pos_;
            } else if (next_is("/*")) {
                const std::size_t start = pos_;
                const std::size_t end = text_.find("*/", pos_ + 2);
                if (end == std::string_view::npos)
                    return error_at(start, "a /* comment that never ends");
                pos_ = end + 2;
            } else {
                break;
            }
        }
        return {};
    }

    Result<nlohmann::json> value(std::size_t depth) {
        const char c = peek();
        if (c == '{' || c == '[') {
            if (depth >= limits_.max_depth)
                return error("nested deeper than " + std::to_string(limits_.max_depth) + " levels");
            return c == '{' ? object(depth + 1) : array(depth + 1);
        }
        if (c == '"' || c == '\'') {
            auto s = string();
            if (!s) return s.error();
            return nlohmann::json(std::move(*s));
        }
        if (next_is("true")) return word("true", true);
        if (next_is("false")) return word("false", false);
        if (next_is("null")) return word("null", nullptr);
        if (c == '+' || c == '-' || c == '.' || is_digit(c) || c == 'I' || c == 'N')
            return number();
        return error(describe_here() + " cannot start a value");
    }

    std::string describe_here() const {
        const auto c = static_cast<unsigned char>(peek());
        if (c >= 0x21 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
        return "byte 0x" + fmt_hex(c);
    }
    static std::string fmt_hex(unsigned c) {
        static constexpr char kDigits[] = "0123456789abcdef";
        return {kDigits[c >> 4], kDigits[c & 15]};
    }

    Result<nlohmann::json> word(std::string_view w, nlohmann::json v) {
        pos_ += w.size();
        if (is_identifier_part(peek())) return error("unknown word");
        return v;
    }

    Result<nlohmann::json> object(std::size_t depth) {
        ++pos_;  // {
        nlohmann::json out = nlohmann::json::object();
        for (;;) {
            if (auto s = skip_space(); !s) return s.error();
            if (peek() == '}') break;
            const std::size_t key_at = pos_;
            auto key = member_name();
            if (!key) return key.error();
            if (out.contains(*key)) return error_at(key_at, "key \"" + *key + "\" given twice");
            if (auto s = skip_space(); !s) return s.error();
            if (peek() != ':') return error("expected ':' after key \"" + *key + "\"");
            ++pos_;
            if (auto s = skip_space(); !s) return s.error();
            auto v = value(depth);
            if (!v) return v;
            out[*key] = std::move(*v);
            if (auto s = skip_space(); !s) return s.error();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == '}') break;
            return at_end() ? error("an object that never ends")
                            : error("expected ',' or '}' after a member, not " + describe_here());
        }
        ++pos_;  // }
        return out;
    }

    Result<nlohmann::json> array(std::size_t depth) {
        ++pos_;  // [
        nlohmann::json out = nlohmann::json::array();
        for (;;) {
            if (auto s = skip_space(); !s) return s.error();
            if (peek() == ']') break;
            if (at_end()) return error("an array that never ends");
            auto v = value(depth);
            if (!v) return v;
            out.push_back(std::move(*v));
            if (auto s = skip_space(); !s) return s.error();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == ']') break;
            return at_end() ? error("an array that never ends")
                            : error("expected ',' or ']' after an element, not " + describe_here());
        }
        ++pos_;  // ]
        return out;
    }

    Result<std::string> member_name() {
        if (peek() == '"' || peek() == '\'') return string();
        if (at_end()) return error("an object that never ends");
        if (!is_identifier_start(peek())) {
            if (static_cast<unsigned char>(peek()) >= 0x80)
                return error("a key that is not ASCII must be quoted");
            return error(describe_here() + " cannot start a key");
        }
        const std::size_t start = pos_;
        while (is_identifier_part(peek()))
            ++pos_;
        if (static_cast<unsigned char>(peek()) >= 0x80 || peek() == '\\')
            return error("a key that is not ASCII must be quoted");
        return std::string(text_.substr(start, pos_ - start));
    }

    Result<std::uint32_t> hex_escape(std::size_t digits) {
        std::uint32_t v = 0;
        for (std::size_t k = 0; k < digits; ++k) {
            if (!is_hex_digit(peek()))
                return error("expected " + std::to_string(digits) + " hexadecimal digits");
            v = v * 16 + static_cast<std::uint32_t>(hex_value(peek()));
            ++pos_;
        }
        return v;
    }

    Result<std::string> string() {
        const char quote = text_[pos_];
        const std::size_t start = pos_;
        ++pos_;
        std::string out;
        for (;;) {
            if (at_end()) return error_at(start, "a string that never ends");
            const char c = peek();
            if (c == quote) {
                ++pos_;
                return out;
            }
            if (c == '\n' || c == '\r') return error("a line break inside a string (escape it)");
            if (c != '\\') {
                out += c;
                ++pos_;
                continue;
            }
            ++pos_;  // backslash
            if (const std::size_t n = line_terminator(); n > 0) {
                pos_ += n;  // a line continuation
                continue;
            }
            const char e = peek();
            ++pos_;
            switch (e) {
                case '\'':
                    out += '\'';
                    break;
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'v':
                    out += '\v';
                    break;
                case '0':
                    if (is_digit(peek())) return error("\\0 followed by a digit");
                    out += '\0';
                    break;
                case 'x': {
                    auto v = hex_escape(2);
                    if (!v) return v.error();
                    append_utf8(out, *v);
                    break;
                }
                case 'u': {
                    auto v = hex_escape(4);
                    if (!v) return v.error();
                    std::uint32_t cp = *v;
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        if (!next_is("\\u")) return error("a lone UTF-16 high surrogate");
                        pos_ += 2;
                        auto low = hex_escape(4);
                        if (!low) return low.error();
                        if (*low < 0xDC00 || *low > 0xDFFF)
                            return error("a UTF-16 high surrogate without its low half");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (*low - 0xDC00);
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        return error("a lone UTF-16 low surrogate");
                    }
                    append_utf8(out, cp);
                    break;
                }
                case '\0':
                    if (at_end()) return error_at(start, "a string that never ends");
                    [[fallthrough]];
                default:
                    if (is_digit(e)) return error("\\" + std::string(1, e) + " is not an escape");
                    out += e;  // any other character stands for itself
                    // A multi-byte character: its continuation bytes follow as they are.
                    break;
            }
        }
    }

    Result<nlohmann::json> number() {
        const std::size_t start = pos_;
        bool negative = false;
        if (peek() == '+' || peek() == '-') {
            negative = peek() == '-';
            ++pos_;
        }
        const auto signed_special = [&](double magnitude) -> Result<nlohmann::json> {
            if (is_identifier_part(peek())) return error_at(start, "unknown word");
            return nlohmann::json(negative ? -magnitude : magnitude);
        };
        if (next_is("Infinity")) {
            pos_ += 8;
            return signed_special(std::numeric_limits<double>::infinity());
        }
        if (next_is("NaN")) {
            pos_ += 3;
            return signed_special(std::numeric_limits<double>::quiet_NaN());
        }
        if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
            pos_ += 2;
            const std::size_t digits = pos_;
            while (is_hex_digit(peek()))
                ++pos_;
            if (pos_ == digits) return error("0x without hexadecimal digits");
            if (is_identifier_part(peek())) return error("a number runs into " + describe_here());
            std::uint64_t magnitude = 0;
            const auto [end, ec] =
                std::from_chars(text_.data() + digits, text_.data() + pos_, magnitude, 16);
            if (ec != std::errc{} || end != text_.data() + pos_ ||
                magnitude > std::uint64_t{std::numeric_limits<std::int64_t>::max()})
                return error_at(start, "a hexadecimal number past 2^63 - 1");
            const auto v = static_cast<std::int64_t>(magnitude);
            return nlohmann::json(negative ? -v : v);
        }

        const std::size_t body = pos_;
        bool integral = true;
        if (peek() == '0' && is_digit(peek(1))) return error("a leading zero (octal is not JSON5)");
        while (is_digit(peek()))
            ++pos_;
        const bool int_digits = pos_ > body;
        if (peek() == '.') {
            integral = false;
            ++pos_;
            const std::size_t fraction = pos_;
            while (is_digit(peek()))
                ++pos_;
            if (!int_digits && pos_ == fraction) return error_at(start, "a number without digits");
        } else if (!int_digits) {
            return error_at(start, "a number without digits");
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            ++pos_;
            if (peek() == '+' || peek() == '-') ++pos_;
            const std::size_t exponent = pos_;
            while (is_digit(peek()))
                ++pos_;
            if (pos_ == exponent) return error("an exponent without digits");
        }
        if (is_identifier_part(peek())) return error("a number runs into " + describe_here());

        // from_chars takes '-' but not '+': parse from the sign only when negative.
        const char* first = text_.data() + (negative ? body - 1 : body);
        const char* last = text_.data() + pos_;
        if (integral) {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(first, last, v);
            if (ec == std::errc{} && end == last) return nlohmann::json(v);
            // Past 64 bits: the nearest double, like any other number.
        }
        double d = 0.0;
        const auto [end, ec] = std::from_chars(first, last, d, std::chars_format::general);
        if (ec == std::errc::result_out_of_range)
            return error_at(start, "a number out of the range of a double");
        if (ec != std::errc{} || end != last) return error_at(start, "not a number");
        return nlohmann::json(d);
    }

    std::string_view text_;
    Json5Limits limits_;
    std::size_t pos_ = 0;
};

}  // namespace

Result<nlohmann::json> parse_json5(std::string_view text, const Json5Limits& limits) {
    if (text.size() > limits.max_bytes)
        return fail(std::to_string(text.size()) + " bytes, more than the " +
                    std::to_string(limits.max_bytes) + " a JSON5 text may have");
    if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos)
        return fail("byte " + std::to_string(bad) + ": not UTF-8");
    return Reader(text, limits).document();
}

}  // namespace carom::stadium
