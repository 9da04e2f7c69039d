// verify (verify.hpp) finds divergences and names the tick, the entity and the field.
#include <doctest/doctest.h>
#include <unistd.h>

#include "carom/replay/reader.hpp"
#include "carom/replay/resimulation.hpp"
#include "carom/replay/verify.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

namespace {

Replay recorded() {
    test::TempFile file("divergence");
    test::record_match(file.path(), 650);
    return *read_replay(file.path());
}

}  // namespace

TEST_CASE("A wrong hash is the first divergent tick") {
    Replay r = recorded();
    r.hashes[99] ^= 1;
    const VerifyReport report = verify(r);
    REQUIRE(report.divergence.has_value());
    CHECK(report.divergence->tick == 100);
    CHECK(report.divergence->what == "state hash differs");
    CHECK(report.ticks == 99);
    // The keyframe at 300 agrees field by field: the state itself did not diverge.
    CHECK(report.divergence->keyframe_tick == 300u);
    CHECK(report.divergence->fields.empty());
}

TEST_CASE("A changed input diverges and the keyframe names the fields") {
    Replay r = recorded();
    // Make the first recorded input after tick 320 something else.
    auto it = std::find_if(r.inputs.begin(), r.inputs.end(),
                           [](const InputChange& c) { return c.tick > 320; });
    REQUIRE(it != r.inputs.end());
    const std::uint64_t changed = it->tick;
    it->input = game::Input::move(static_cast<std::uint8_t>((it->input.direction() + 8) % 16));
    const VerifyReport report = verify(r);
    REQUIRE(report.divergence.has_value());
    CHECK(report.divergence->tick == changed);
    CHECK(report.divergence->keyframe_tick == 600u);
    REQUIRE_FALSE(report.divergence->fields.empty());
    bool names_a_player_position = false;
    for (const FieldDiff& f : report.divergence->fields) {
        names_a_player_position |= f.entity.rfind("player", 0) == 0 && f.field == "position.x";
        CHECK(f.recorded != f.simulated);
    }
    CHECK(names_a_player_position);
}

TEST_CASE("A keyframe that disagrees with the re-simulation is a divergence") {
    Replay r = recorded();
    r.keyframes[1].state.pucks[0].disk.position.x += 0.5;
    const VerifyReport report = verify(r);
    REQUIRE(report.divergence.has_value());
    CHECK(report.divergence->tick == 300);
    REQUIRE(report.divergence->fields.size() == 1);
    CHECK(report.divergence->fields[0].entity == "puck 0");
    CHECK(report.divergence->fields[0].field == "position.x");
}

TEST_CASE("Re-simulating from a keyframe alone reproduces the recorded hashes") {
    // What the synctest does for every keyframe, checked here step by step.
    const Replay r = recorded();
    Resimulation window(r, r.keyframes[1]);
    CHECK(window.tick() == 300);
    CHECK(window.match().state_hash() == r.keyframes[1].hash);
    CHECK(r.hash_agrees(300, window.match().state_hash()));
    for (std::uint64_t tick = 301; tick <= 600; ++tick) {
        const auto stepped = window.step();
        REQUIRE(stepped.ok());
        REQUIRE(r.hash_agrees(tick, *stepped));
    }
    // A keyframe that lost a field re-simulates differently.
    Keyframe lossy = r.keyframes[1];
    lossy.state.players[0].kick_cooldown = 0;
    lossy.state.players[0].disk.velocity = {};
    Resimulation off(r, lossy);
    bool differs = false;
    for (std::uint64_t tick = 301; tick <= 600 && !differs; ++tick) {
        const auto stepped = off.step();
        REQUIRE(stepped.ok());
        differs = !r.hash_agrees(tick, *stepped);
    }
    CHECK(differs);
}

TEST_CASE("A replay that asks for the impossible is inconsistent, not divergent") {
    Replay r = recorded();
    r.roster[1].slot = 0;  // join into a taken slot
    const VerifyReport report = verify(r);
    REQUIRE(report.inconsistency.has_value());
    CHECK(report.inconsistency->find("slot is taken") != std::string::npos);
    // The re-simulation says so at that tick, as an error, and steps nothing.
    Resimulation sim(r);
    while (sim.tick() + 1 < r.roster[1].tick)
        REQUIRE(sim.step().ok());
    const std::uint64_t before = sim.tick();
    const auto refused = sim.step();
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("tick " + std::to_string(r.roster[1].tick)) == 0);
    CHECK(sim.tick() == before);
}

TEST_CASE("A start the match refuses is the re-simulation's error, and verify's inconsistency") {
    Replay r = recorded();
    r.header.players[1].slot = r.header.players[0].slot;  // two players in one slot
    const auto sim = Resimulation::from_start(r);
    REQUIRE_FALSE(sim.ok());
    CHECK(sim.error().message == "header players: join: slot is taken");
    const VerifyReport report = verify(r);
    REQUIRE(report.inconsistency.has_value());
    CHECK(*report.inconsistency == sim.error().message);

    Replay unplayable = recorded();
    unplayable.header.map.puck_spawns.clear();
    const auto no_map = Resimulation::from_start(unplayable);
    REQUIRE_FALSE(no_map.ok());
    CHECK(no_map.error().message.find("puck_spawns") != std::string::npos);
    CHECK(verify(unplayable).inconsistency.has_value());

    Replay bad_keyframe = recorded();
    REQUIRE(bad_keyframe.keyframes.size() > 1);
    bad_keyframe.keyframes[1].state.players.pop_back();
    const auto from_keyframe = Resimulation::from_keyframe(bad_keyframe, bad_keyframe.keyframes[1]);
    REQUIRE_FALSE(from_keyframe.ok());
    CHECK(from_keyframe.error().message.find("keyframe at tick 300: restore:") == 0);
}
