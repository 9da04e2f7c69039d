#include <doctest/doctest.h>

#include <algorithm>

#include "link.hpp"
#include "simulated_transport.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

TEST_CASE("inputs first received as a redundant copy are counted as recovered") {
    Link link;
    InlineDiskWork disk;
    Server server(config_for("rink.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    REQUIRE(c.connect("ana")->body_type() == net::Body::Accepted);
    const auto bits = game::Input::move(4).bits();
    const auto inputs = [&](std::uint32_t newest, std::size_t count) {
        c.report(newest, std::vector<std::uint8_t>(count, bits));
    };

    inputs(1, 1);  // the newest of its packet: not a recovery
    CHECK(server.stats().inputs_recovered == 0);
    inputs(2, 2);  // 1 is a duplicate now
    CHECK(server.stats().inputs_recovered == 0);
    // The packet carrying 3 as its newest was lost: 3 arrives inside the next one.
    inputs(4, 4);
    CHECK(server.stats().inputs_recovered == 1);
    // Two packets lost.
    inputs(7, 5);
    CHECK(server.stats().inputs_recovered == 3);
    CHECK(server.stats().inputs_duplicate == 5);
}

TEST_CASE("a server behind a simulated link: replies wait for their latency, loss is seeded") {
    Link link;
    linksim::LinkSpec spec;
    spec.latency_ms = 50;
    SimulatedTransport delayed(link, spec, 1);
    InlineDiskWork disk;
    Server server(config_for("rink.json"), delayed, disk, fixed_cookies(), "t");
    ScriptedClient c(server, link, endpoint(1, 5000));
    c.request("ana");
    delayed.advance(49'999);
    CHECK(c.pending() == 0);
    REQUIRE(delayed.next_due_us().has_value());
    CHECK(*delayed.next_due_us() == 50'000);
    delayed.advance(50'000);
    const net::Packet* challenge = c.next();
    REQUIRE(challenge != nullptr);
    CHECK(challenge->body_type() == net::Body::Challenge);

    // Half lost, from a seed: the same seed loses the same replies.
    const auto lost_with = [](std::uint64_t seed) {
        Link l;
        linksim::LinkSpec half;
        half.loss_percent = 50;
        SimulatedTransport lossy(l, half, seed);
        InlineDiskWork files;
        Server s(config_for("rink.json"), lossy, files, fixed_cookies(), "t");
        std::vector<bool> arrived;
        for (std::uint16_t port = 1; port <= 40; ++port) {
            ScriptedClient k(s, l, endpoint(2, port));
            k.request("k");
            lossy.advance(0);
            arrived.push_back(k.pending() == 1);
        }
        return arrived;
    };
    const std::vector<bool> a = lost_with(7);
    CHECK(a == lost_with(7));
    const auto arrived = static_cast<std::size_t>(std::count(a.begin(), a.end(), true));
    CHECK(arrived > 5);
    CHECK(arrived < 35);
}
