#include <doctest/doctest.h>

#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

TEST_CASE("inputs first received as a redundant copy are counted as recovered") {
    Link link;
    Server server(config_for("rink.json"), link, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    const auto bits = game::Input::move(4).bits();
    using Cmds = std::vector<std::pair<std::uint32_t, std::uint8_t>>;

    c.input(Cmds{{1, bits}});  // the newest of its packet: not a recovery
    CHECK(server.stats().inputs_recovered == 0);
    c.input(Cmds{{1, bits}, {2, bits}});  // 1 is a duplicate now
    CHECK(server.stats().inputs_recovered == 0);
    // The packet carrying 3 as its newest was lost: 3 arrives inside the next one.
    c.input(Cmds{{1, bits}, {2, bits}, {3, bits}, {4, bits}});
    CHECK(server.stats().inputs_recovered == 1);
    // Two packets lost.
    c.input(Cmds{{3, bits}, {4, bits}, {5, bits}, {6, bits}, {7, bits}});
    CHECK(server.stats().inputs_recovered == 3);
    CHECK(server.stats().inputs_duplicate == 5);
}
