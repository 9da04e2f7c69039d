// What an operator reads: refusals at a bounded rate per address, and
// --log-format json lines that a log shipper can parse.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "refusal_log.hpp"
#include "server_process.hpp"

using carom::server::RefusalLog;

TEST_CASE("refusals are logged once per address per window, then with a count") {
    RefusalLog log;
    const std::array<std::uint8_t, 16> a{1}, b{2};
    CHECK(log.admit(a, 100) == std::optional<std::uint64_t>(0));
    CHECK(log.admit(b, 101) == std::optional<std::uint64_t>(0));  // another address: its own line
    for (int i = 0; i < 50; ++i)
        CHECK_FALSE(log.admit(a, 102 + static_cast<std::uint64_t>(i)).has_value());
    CHECK_FALSE(log.admit(a, 100 + RefusalLog::kWindowTicks - 1).has_value());
    // The next window's first refusal is logged with the 51 not logged before it.
    CHECK(log.admit(a, 100 + RefusalLog::kWindowTicks) == std::optional<std::uint64_t>(51));
    CHECK_FALSE(log.admit(a, 101 + RefusalLog::kWindowTicks).has_value());
}

TEST_CASE("refusal log memory is bounded under many addresses") {
    RefusalLog log;
    std::size_t logged = 0;
    for (std::uint32_t i = 0; i < 2 * RefusalLog::kMaxAddresses; ++i) {
        std::array<std::uint8_t, 16> ip{};
        ip[12] = static_cast<std::uint8_t>(i >> 24);
        ip[13] = static_cast<std::uint8_t>(i >> 16);
        ip[14] = static_cast<std::uint8_t>(i >> 8);
        ip[15] = static_cast<std::uint8_t>(i);
        if (log.admit(ip, 5)) ++logged;
    }
    CHECK(logged == RefusalLog::kMaxAddresses);  // the rest stay quiet within the window
    std::array<std::uint8_t, 16> late{};
    late[0] = 9;
    CHECK(log.admit(late, 5 + RefusalLog::kWindowTicks).has_value());  // old windows forgotten
}

TEST_CASE("--log-format json writes one JSON object per line") {
    std::string log;
    {
        carom::test::ServerProcess server({"--log-format", "json"});
        CHECK(server.stop(SIGTERM) == 0);
        log = server.log();
    }
    std::istringstream lines(log);
    std::string line;
    int parsed = 0;
    bool listening = false;
    while (std::getline(lines, line)) {
        CAPTURE(line);
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        CHECK(j["time"].get<std::string>().ends_with("Z"));
        CHECK(j["level"].is_string());
        CHECK(j["logger"] == "carom-server");
        listening = listening || j["message"].get<std::string>().starts_with("listening on");
        ++parsed;
    }
    CHECK(parsed >= 3);  // match, listening, shutting down, stopped
    CHECK(listening);
}
