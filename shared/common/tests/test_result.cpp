#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "carom/result.hpp"

namespace {

carom::Result<int> parse_digit(char c) {
    if (c < '0' || c > '9') return carom::fail(std::string("'") + c + "' is not a digit");
    return c - '0';
}

carom::Status check_even(int n) {
    if (n % 2 != 0) return carom::fail(std::to_string(n) + " is odd");
    return {};
}

}  // namespace

TEST_CASE("Result holds a value or the reason there is none") {
    const auto seven = parse_digit('7');
    REQUIRE(seven.ok());
    CHECK(static_cast<bool>(seven));
    CHECK(*seven == 7);

    const auto letter = parse_digit('x');
    REQUIRE_FALSE(letter.ok());
    CHECK(letter.error().message == "'x' is not a digit");
    CHECK(letter.error_in("line 3").message == "line 3: 'x' is not a digit");
}

TEST_CASE("Result moves its value out, so it can hold move-only types") {
    carom::Result<std::unique_ptr<int>> boxed = std::make_unique<int>(5);
    REQUIRE(boxed);
    const std::unique_ptr<int> taken = *std::move(boxed);
    CHECK(*taken == 5);
}

TEST_CASE("Status is success or a reason") {
    CHECK(check_even(4).ok());
    const auto odd = check_even(3);
    REQUIRE_FALSE(odd.ok());
    CHECK(odd.error().message == "3 is odd");
}
