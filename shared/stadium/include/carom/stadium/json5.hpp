#pragma once
// A strict reader for JSON5 (https://spec.json5.org/), the syntax of HaxBall's
// stadium files: comments, unquoted keys, single-quoted strings, trailing
// commas, hexadecimal numbers, leading and trailing decimal points, an
// explicit + sign, Infinity and NaN. No C++ library in Debian reads it.
//
// Strict where the specification is loose, because the files are untrusted:
// a key given twice in one object is refused (which one counts would depend
// on the reader), identifiers are ASCII, and the text and its nesting are
// bounded. Every error names the line and column.
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "carom/result.hpp"

namespace carom::stadium {

struct Json5Limits {
    std::size_t max_bytes = 4u << 20;  // 4 MiB, as a carom map file
    std::size_t max_depth = 64;        // nested objects and arrays
};

// Numbers: an integer written without a point or an exponent (decimal or
// hexadecimal) that fits in 64 bits stays an integer; every other number is
// the double nearest its decimal text (std::from_chars, so the same bits on
// every platform), Infinity and NaN included.
Result<nlohmann::json> parse_json5(std::string_view text, const Json5Limits& limits = {});

}  // namespace carom::stadium
