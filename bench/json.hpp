#pragma once
// The few JSON pieces the benchmarks print by hand, one object per line.
#include <string>
#include <string_view>

namespace carom::bench {

// `value` formatted with `format`, or null: JSON has no NaN or infinity.
std::string json_number(double value, std::string_view format);
// `text` quoted, with quotes, backslashes and control characters escaped.
std::string json_string(std::string_view text);

}  // namespace carom::bench
