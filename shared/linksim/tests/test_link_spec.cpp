#include <doctest/doctest.h>

#include <string>

#include "carom/linksim/link_spec.hpp"

using carom::linksim::LinkSpec;
using carom::linksim::parse_link_spec;

namespace {

LinkSpec parsed(const char* text) {
    auto r = parse_link_spec(text);
    INFO(text << ": " << (r ? std::string("ok") : r.error().message));
    REQUIRE(r.ok());
    return *r;
}

std::string refusal(const char* text) {
    auto r = parse_link_spec(text);
    REQUIRE_MESSAGE(!r.ok(), text << " was accepted");
    return r.error().message;
}

}  // namespace

TEST_CASE("link spec: every key is read, in any order") {
    const LinkSpec s =
        parsed("seed=42,loss=10,latency=100,jitter=30,dup=2,reorder=2.5,rate=512,queue=250");
    CHECK(s.loss_percent == 10.0);
    CHECK(s.latency_ms == 100.0);
    CHECK(s.jitter_ms == 30.0);
    CHECK(s.duplicate_percent == 2.0);
    CHECK(s.reorder_percent == 2.5);
    CHECK(s.rate_kbit == 512.0);
    CHECK(s.queue_ms == 250.0);
    REQUIRE(s.seed.has_value());
    CHECK(*s.seed == 42);
    CHECK(s.active());
}

TEST_CASE("link spec: unset keys keep a perfect link, and only the seed changes nothing") {
    const LinkSpec s = parsed("seed=1");
    CHECK_FALSE(s.active());
    CHECK(parsed("loss=0.5").loss_percent == 0.5);
    CHECK(parsed("loss=0.5").latency_ms == 0.0);
    CHECK(parsed("rate=1").active());
}

TEST_CASE("link spec: the text form reads back to the same spec") {
    for (const char* text : {"loss=10,latency=100,jitter=30,dup=2,reorder=2,seed=7", "rate=64",
                             "latency=0.25,queue=0", "loss=100"}) {
        const LinkSpec s = parsed(text);
        const std::string again = carom::linksim::to_string(s);
        CHECK_MESSAGE(parsed(again.c_str()) == s, text << " -> " << again);
    }
}

TEST_CASE("link spec: bad specs are refused with the offending part named") {
    CHECK(refusal("").find("empty") != std::string::npos);
    CHECK(refusal("loss").find("'loss' is not key=value") != std::string::npos);
    CHECK(refusal("loss=").find("not key=value") != std::string::npos);
    CHECK(refusal("=5").find("not key=value") != std::string::npos);
    CHECK(refusal("loss=5,").find("ends with ','") != std::string::npos);
    CHECK(refusal("loss=5,,dup=1").find("not key=value") != std::string::npos);
    CHECK(refusal("lose=5").find("unknown key 'lose'") != std::string::npos);
    CHECK(refusal("loss=ten").find("loss=ten: not a number") != std::string::npos);
    CHECK(refusal("loss=101").find("outside [0, 100]%") != std::string::npos);
    CHECK(refusal("loss=-1").find("outside") != std::string::npos);
    CHECK(refusal("latency=nan").find("not a number") != std::string::npos);
    CHECK(refusal("jitter=inf").find("not a number") != std::string::npos);
    CHECK(refusal("latency=70000").find("outside [0, 60000] ms") != std::string::npos);
    CHECK(refusal("rate=0.5").find("below 1 kbit/s") != std::string::npos);
    CHECK(refusal("loss=1,loss=2").find("'loss' given twice") != std::string::npos);
    CHECK(refusal("seed=-3").find("not an unsigned") != std::string::npos);
    CHECK(refusal("seed=1.5").find("not an unsigned") != std::string::npos);
    CHECK(refusal("loss=5 ").find("not a number") != std::string::npos);
}

TEST_CASE("link spec: derived seeds differ by stream and repeat by seed") {
    using carom::linksim::derive_seed;
    CHECK(derive_seed(1, 0) == derive_seed(1, 0));
    CHECK(derive_seed(1, 0) != derive_seed(1, 1));
    CHECK(derive_seed(1, 0) != derive_seed(2, 0));
}
