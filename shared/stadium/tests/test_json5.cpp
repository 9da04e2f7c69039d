#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "carom/stadium/json5.hpp"

namespace carom::stadium {
namespace {

nlohmann::json parsed(const std::string& text) {
    auto r = parse_json5(text);
    INFO(text);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    return *std::move(r);
}

std::string refusal(const std::string& text, const Json5Limits& limits = {}) {
    auto r = parse_json5(text, limits);
    INFO(text);
    REQUIRE_FALSE(r.ok());
    return r.error().message;
}

// The specification's overview example (spec.json5.org, "Summary of Features").
TEST_CASE("json5_reads_the_specifications_overview_example") {
    const auto v = parsed(R"(
// This file is written in JSON5 syntax, naturally, but npm needs a regular
// JSON file, so compile via `npm run build`. Be sure to keep both in sync!
{
  // comments
  unquoted: 'and you can quote me on that',
  singleQuotes: 'I can use "double quotes" here',
  lineBreaks: "Look, Mom! \
No \\n's!",
  hexadecimal: 0xdecaf,
  leadingDecimalPoint: .8675309, andTrailing: 8675309.,
  positiveSign: +1,
  trailingComma: 'in objects', andIn: ['arrays',],
  "backwardsCompatible": "with JSON",
}
)");
    CHECK(v["unquoted"] == "and you can quote me on that");
    CHECK(v["singleQuotes"] == "I can use \"double quotes\" here");
    CHECK(v["lineBreaks"] == "Look, Mom! No \\n's!");
    CHECK(v["hexadecimal"] == 912559);
    CHECK(v["leadingDecimalPoint"].get<double>() == 0.8675309);
    CHECK(v["andTrailing"].get<double>() == 8675309.0);
    CHECK(v["positiveSign"] == 1);
    CHECK(v["trailingComma"] == "in objects");
    CHECK(v["andIn"] == nlohmann::json::array({"arrays"}));
    CHECK(v["backwardsCompatible"] == "with JSON");
    CHECK(v.size() == 10);
}

TEST_CASE("json5_objects_and_arrays_as_the_specification_shows_them") {
    const auto image = parsed(R"({
  image: {
    width: 800, height: 600,
    'title': 'View from 15th Floor',
    thumbnail: { url: 'http://www.example.com/image/481989943', height: 125, width: 100, },
    animated: false,
    ids: [116, 943, 234, 38793,],
  },
})");
    CHECK(image["image"]["width"] == 800);
    CHECK(image["image"]["title"] == "View from 15th Floor");
    CHECK(image["image"]["thumbnail"]["width"] == 100);
    CHECK(image["image"]["animated"] == false);
    CHECK(image["image"]["ids"].size() == 4);
    // Reserved words and $ or _ are keys like any other identifier.
    const auto keys = parsed("{ while: true, $id: 1, _x9: null, null: 2 }");
    CHECK(keys["while"] == true);
    CHECK(keys["$id"] == 1);
    CHECK(keys["_x9"].is_null());
    CHECK(keys["null"] == 2);
    CHECK(parsed("[]").empty());
    CHECK(parsed("{}").empty());
    CHECK(parsed("[[1,],[],]") == nlohmann::json::parse("[[1],[]]"));
}

TEST_CASE("json5_strings_escapes_and_line_continuations") {
    CHECK(parsed(R"('I can use "double quotes" here')") == "I can use \"double quotes\" here");
    CHECK(parsed(R"("I can use 'single quotes' here")") == "I can use 'single quotes' here");
    CHECK(parsed("'Look, Mom! \\\nNo \\\\n\\'s!'") == "Look, Mom! No \\n's!");
    // A character that is not an escape stands for itself.
    CHECK(parsed(R"('\A\C\/\D\C')") == "AC/DC");
    CHECK(parsed(R"("\b\f\n\r\t\v\0")") == std::string("\b\f\n\r\t\v\0", 7));
    CHECK(parsed(R"("\x41\u00e9\uD83D\uDE00")") == "A\xC3\xA9\xF0\x9F\x98\x80");
    // U+2028 and U+2029 may stand unescaped in a string; CR LF continues a line.
    CHECK(parsed("'a\xE2\x80\xA8"
                 "b'") ==
          "a\xE2\x80\xA8"
          "b");
    CHECK(parsed("'one \\\r\ntwo'") == "one two");
}

TEST_CASE("json5_numbers") {
    CHECK(parsed("123") == 123);
    CHECK(parsed("-123") == -123);
    CHECK(parsed("+123") == 123);
    CHECK(parsed("123.456").get<double>() == 123.456);
    CHECK(parsed(".456").get<double>() == 0.456);
    CHECK(parsed("-.5").get<double>() == -0.5);
    CHECK(parsed("123.").get<double>() == 123.0);
    CHECK(parsed("1e3").get<double>() == 1000.0);
    CHECK(parsed("1E-3").get<double>() == 0.001);
    CHECK(parsed("0xC8") == 200);
    CHECK(parsed("-0xff") == -255);
    CHECK(parsed("0x7FFFFFFFFFFFFFFF") == 9223372036854775807LL);
    CHECK(parsed("Infinity").get<double>() == INFINITY);
    CHECK(parsed("-Infinity").get<double>() == -INFINITY);
    CHECK(std::isnan(parsed("NaN").get<double>()));
    // Integers past 64 bits become the nearest double, not an error.
    CHECK(parsed("123456789012345678901234567890").get<double>() == 1.2345678901234568e29);
    // The double nearest the decimal text, bit for bit (0.1 + 0.2 is not 0.3).
    CHECK(parsed("0.30000000000000004").get<double>() == 0.1 + 0.2);
}

TEST_CASE("json5_comments_and_white_space") {
    CHECK(parsed("/* a block\n comment */ [1, // a line comment\n 2]") ==
          nlohmann::json::parse("[1,2]"));
    // BOM, vertical tab, form feed, no-break space, U+2028 and U+3000 are white space.
    CHECK(parsed("\xEF\xBB\xBF\v\f\xC2\xA0[\xE2\x80\xA8"
                 "1\xE3\x80\x80]") == nlohmann::json::parse("[1]"));
    CHECK(parsed("1 // to the end, no newline") == 1);
}

TEST_CASE("json5_refuses_what_the_specification_does_not_allow_and_says_where") {
    CHECK(refusal("{\n  a: 1,\n  b: 01\n}") ==
          "line 3, column 6: a leading zero (octal is not JSON5)");
    CHECK(refusal("{a: 'open") == "line 1, column 5: a string that never ends");
    CHECK(refusal("'a\nb'") == "line 1, column 3: a line break inside a string (escape it)");
    CHECK(refusal("/* never closed") == "line 1, column 1: a /* comment that never ends");
    CHECK(refusal("[1 2]") == "line 1, column 4: expected ',' or ']' after an element, not '2'");
    CHECK(refusal("{a 1}") == "line 1, column 4: expected ':' after key \"a\"");
    CHECK(refusal("[1,,2]") == "line 1, column 4: ',' cannot start a value");
    CHECK(refusal("[1] x") == "line 1, column 5: text after the value");
    CHECK(refusal("0x") == "line 1, column 3: 0x without hexadecimal digits");
    CHECK(refusal("0x8000000000000000") == "line 1, column 1: a hexadecimal number past 2^63 - 1");
    CHECK(refusal("1e999") == "line 1, column 1: a number out of the range of a double");
    CHECK(refusal("12abc") == "line 1, column 3: a number runs into 'a'");
    CHECK(refusal("1e") == "line 1, column 3: an exponent without digits");
    CHECK(refusal("-") == "line 1, column 1: a number without digits");
    CHECK(refusal("Infinityx") == "line 1, column 1: unknown word");
    CHECK(refusal("trueish") == "line 1, column 5: unknown word");
    CHECK(refusal("'\\1'") == "line 1, column 4: \\1 is not an escape");
    CHECK(refusal("'\\uD800'") == "line 1, column 8: a lone UTF-16 high surrogate");
    CHECK(refusal("'\\x4'") == "line 1, column 5: expected 2 hexadecimal digits");
    CHECK(refusal("") == "line 1, column 1: the text holds no value");
    CHECK(refusal("[1,") == "line 1, column 4: an array that never ends");
    CHECK(refusal("{a: 1,") == "line 1, column 7: an object that never ends");
}

TEST_CASE("json5_is_strict_where_the_specification_is_loose") {
    // A key given twice: which one counts would depend on the reader.
    CHECK(refusal("{\n  bCoef: 0.5,\n  'bCoef': 1\n}") ==
          "line 3, column 3: key \"bCoef\" given twice");
    CHECK(refusal("{caf\xC3\xA9: 1}") ==
          "line 1, column 5: a key that is not ASCII must be quoted");
    CHECK(parsed("{'caf\xC3\xA9': 1}")["caf\xC3\xA9"] == 1);
    CHECK(refusal("['\xC3(']") == "byte 2: not UTF-8");
    CHECK(refusal("'\xED\xA0\x80'") == "byte 1: not UTF-8");  // a UTF-16 surrogate in UTF-8
}

TEST_CASE("json5_bounds_size_and_depth") {
    Json5Limits limits;
    limits.max_depth = 3;
    CHECK(parsed("[[[1]]]") == nlohmann::json::parse("[[[1]]]"));
    CHECK(parse_json5("[[[1]]]", limits).ok());
    CHECK(refusal("[[[[1]]]]", limits) == "line 1, column 4: nested deeper than 3 levels");
    // Deep nesting of the default limit is refused, not a stack overflow.
    const std::string deep(100000, '[');
    CHECK(refusal(deep) == "line 1, column 65: nested deeper than 64 levels");
    limits = {};
    limits.max_bytes = 8;
    CHECK(refusal("[1, 2, 3, 4]", limits) == "12 bytes, more than the 8 a JSON5 text may have");
}

}  // namespace
}  // namespace carom::stadium
