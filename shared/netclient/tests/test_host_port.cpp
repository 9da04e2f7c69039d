#include <doctest/doctest.h>

#include "carom/client/host_port.hpp"

namespace carom::client {
namespace {

HostPort ok(std::string_view text) {
    auto parsed = parse_host_port(text);
    REQUIRE(parsed.ok());
    return *parsed;
}

bool refused(std::string_view text) {
    return !parse_host_port(text).ok();
}

TEST_CASE("host_port_accepts_names_ipv4_and_bracketed_ipv6") {
    CHECK(ok("localhost:7777").host == "localhost");
    CHECK(ok("localhost:7777").port == 7777);
    CHECK(ok("127.0.0.1:1").host == "127.0.0.1");
    CHECK(ok("[::1]:65535").host == "::1");
    CHECK(ok("[::1]:65535").port == 65535);
    CHECK(ok("[fe80::1%eth0]:9000").host == "fe80::1%eth0");
}

TEST_CASE("host_port_refuses_what_is_not_host_colon_port") {
    CHECK(refused("localhost"));
    CHECK(refused(":7777"));
    CHECK(refused("host:"));
    CHECK(refused("host:0"));
    CHECK(refused("host:65536"));
    CHECK(refused("host:77x"));
    CHECK(refused("::1:7777"));
    CHECK(refused("[::1]7777"));
    CHECK(refused("[::1"));
    CHECK(refused("[]:7777"));
}

}  // namespace
}  // namespace carom::client
