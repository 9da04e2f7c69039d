// The seek engine shows, at any tick, the state that playing from the start reaches.
#include <doctest/doctest.h>

#include <cstdio>
#include <random>

#include "carom/replay/reader.hpp"
#include "carom/replay_view/seek.hpp"
#include "corpus.hpp"

namespace carom::tool {
namespace {

using namespace carom::replay_view;

replay::Replay read(const std::string& path) {
    auto r = replay::read_replay(path);
    REQUIRE_MESSAGE(r.ok(), path, " is unreadable");
    return *std::move(r);
}

// state_hash() at every tick 0..last, playing from the start.
std::vector<std::uint64_t> hashes_from_start(const replay::Replay& r) {
    replay::Resimulation sim(r);
    std::vector<std::uint64_t> hashes{sim.match().state_hash()};
    while (sim.tick() < r.last_tick()) {
        const auto stepped = sim.step();
        REQUIRE(stepped.ok());
        hashes.push_back(*stepped);
    }
    return hashes;
}

TEST_CASE("a seek to a random tick of every corpus replay equals playing there from the start") {
    const std::uint64_t seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const auto files = test::corpus_files();
    REQUIRE(files.size() >= 1);
    for (const std::string& path : files) {
        CAPTURE(path);
        CAPTURE(seed);
        const replay::Replay r = read(path);
        REQUIRE(r.keyframes.size() >= 2);
        const std::vector<std::uint64_t> truth = hashes_from_start(r);
        // The file's own hashes agree with the re-simulation (else the test proves nothing).
        for (std::uint64_t t = 1; t <= r.last_tick(); t += 997)
            CHECK(r.hash_agrees(t, truth[t]));

        SeekEngine engine(r);
        std::uniform_int_distribution<std::uint64_t> any(0, r.last_tick());
        std::size_t restored = 0;
        for (int i = 0; i < 40; ++i) {
            std::uint64_t target = any(rng);
            if (i % 8 == 7) target = engine.tick() + (target % 40);  // short hops forward
            if (i == 0) target = r.last_tick();
            if (i == 1) target = 0;
            target = std::min(target, r.last_tick());
            CAPTURE(target);
            REQUIRE(engine.seek(target).ok());
            REQUIRE(engine.tick() == target);
            CHECK(engine.match().state_hash() == truth[target]);
            if (engine.last_seek_restored()) {
                ++restored;
                // Never more than a keyframe interval (300 ticks) of re-simulation.
                CHECK(engine.last_seek_steps() < 300);
            }
            // And it plays on from there exactly.
            const std::uint64_t on = std::min<std::uint64_t>(target + 7, r.last_tick());
            REQUIRE(engine.seek(on).ok());
            CHECK(engine.match().state_hash() == truth[on]);
        }
        CHECK(restored > 0);
        std::printf("%s: %llu ticks, 40 seeks (%zu from a keyframe) equal playing from the start\n",
                    path.c_str(), static_cast<unsigned long long>(r.last_tick()), restored);
        // Past the end clamps to the end.
        REQUIRE(engine.seek(r.last_tick() + 1000).ok());
        CHECK(engine.tick() == r.last_tick());
    }
}

TEST_CASE("goal marks and neighbours follow the file's goal events") {
    const replay::Replay r = read(std::string(CAROM_CORPUS_DIR) + "/duel-rink.crpl");
    SeekEngine engine(r);
    std::vector<std::uint64_t> goals;
    for (const game::MatchEvent& e : r.events)
        if (e.kind == game::MatchEvent::Kind::goal) goals.push_back(e.tick);
    REQUIRE(goals.size() >= 2);
    REQUIRE(engine.goals().size() == goals.size());
    CHECK(engine.next_goal(0) == goals[0]);
    CHECK(engine.next_goal(goals[0]) == goals[1]);
    CHECK(engine.previous_goal(goals[1]) == goals[0]);
    CHECK_FALSE(engine.previous_goal(goals[0]).has_value());
    CHECK_FALSE(engine.next_goal(goals.back()).has_value());
    // At a goal's tick the score has changed, one tick before it has not.
    REQUIRE(engine.seek(goals[0] - 1).ok());
    const std::uint32_t before =
        engine.match().score(game::Team::left) + engine.match().score(game::Team::right);
    REQUIRE(engine.seek(goals[0]).ok());
    CHECK(engine.match().score(game::Team::left) + engine.match().score(game::Team::right) ==
          before + 1);
}

TEST_CASE("times parse and print as the timeline shows them") {
    CHECK(parse_time("90", 60) == 5400);
    CHECK(parse_time("1:30", 60) == 5400);
    CHECK(parse_time("1:30.5", 60) == 5430);
    CHECK(parse_time("0.25", 60) == 15);
    CHECK_FALSE(parse_time("", 60).has_value());
    CHECK_FALSE(parse_time("1:", 60).has_value());
    CHECK_FALSE(parse_time("x", 60).has_value());
    CHECK_FALSE(parse_time("-3", 60).has_value());
    CHECK_FALSE(parse_time("1.2.3", 60).has_value());
    CHECK(clock_text(0, 60) == "0:00.0");
    CHECK(clock_text(5430, 60) == "1:30.5");
    CHECK(clock_text(36000, 60) == "10:00.0");
    CHECK(clock_text(59, 60) == "0:00.9");
}

}  // namespace
}  // namespace carom::tool
