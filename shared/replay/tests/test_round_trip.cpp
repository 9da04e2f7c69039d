// Writer, reader and verify (writer.hpp, reader.hpp, verify.hpp) on a recorded match.
#include <doctest/doctest.h>
#include <unistd.h>

#include "carom/replay/field_diff.hpp"
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

TEST_CASE("A recorded match reads back whole and verifies, synctest included") {
    test::TempFile file("round-trip");
    test::record_match(file.path(), 700);
    auto read = read_replay(file.path());
    REQUIRE(read.ok());
    const Replay& r = *read;
    CHECK_FALSE(r.problem.has_value());
    CHECK(r.header.format_version == kFormatVersion);
    CHECK(r.header.map.name == "small");
    CHECK(r.header.seed == 11);
    CHECK(r.header.players.size() == 3);
    CHECK(r.last_tick() == 700);
    // Keyframes at 0, 300, 600 and the last tick.
    REQUIRE(r.keyframes.size() == 4);
    CHECK(r.keyframes[1].state.tick == 300);
    CHECK(r.keyframes[3].state.tick == 700);
    REQUIRE(r.roster.size() == 2);
    CHECK(r.roster[0].tick == 101);
    CHECK_FALSE(r.roster[0].join);
    CHECK(r.roster[1].name == "d");
    REQUIRE(r.footer.has_value());
    CHECK(r.tick_hash_bits == kTickHashBits);
    CHECK(r.kept(r.footer->final_hash) == r.hashes.back());
    CHECK(r.footer->final_hash == r.keyframes.back().hash);
    CHECK_FALSE(r.inputs.empty());

    VerifyOptions options;
    options.synctest = true;
    const VerifyReport report = verify(r, options);
    CHECK_FALSE(report.divergence.has_value());
    CHECK_FALSE(report.inconsistency.has_value());
    CHECK(report.ticks == 700);
    CHECK(report.keyframes == 4);
    CHECK(report.synctest_windows == 4);
}

TEST_CASE("A writer that is never finished leaves a file readable up to its last chunk") {
    test::TempFile file("killed");
    test::record_match(file.path(), 250, /*finish=*/false);
    auto read = read_replay(file.path());
    REQUIRE(read.ok());
    const Replay& r = *read;
    CHECK(r.last_tick() == 250);  // the destructor flushed what was pending
    CHECK_FALSE(r.footer.has_value());
    REQUIRE(r.problem.has_value());
    CHECK(r.problem->reason.find("no footer") != std::string::npos);
    const VerifyReport report = verify(r);
    CHECK_FALSE(report.divergence.has_value());
    CHECK(report.ticks == 250);
}

TEST_CASE("Ticks reach the file at least once a second of play, without flush()") {
    test::TempFile file("cadence");
    test::RecordedMatch rec(file.path(), game::test::small_map(), 1, {{0, "a", true}});
    std::vector<game::Input> in(rec.match().slot_count());
    for (std::uint32_t t = 0; t < game::kTickRate; ++t)
        rec.step(in);
    // Not finished, not destroyed: what is on disk already holds the first second.
    auto read = read_replay(test::read_bytes(file.path()));
    REQUIRE(read.ok());
    CHECK(read->last_tick() == game::kTickRate);
    rec.finish();
}

TEST_CASE("A map's movable discs are in the keyframes, verify and are named by the diff") {
    game::Map map = game::test::small_map(2);
    game::Disc disc;
    disc.position = {40.0, 22.0};
    disc.velocity = {-5.0, 1.0};
    disc.radius = 2.0;
    disc.drag = 0.5;
    map.discs = {disc};
    map.kickoff_resets_discs = true;
    map.score_limit = 0;  // plays all 700 ticks
    test::TempFile file("discs");
    test::RecordedMatch rec(file.path(), map, 3, {{0, "a", true}, {2, "b", true}});
    for (int t = 0; t < 700; ++t)
        rec.step_bots();
    rec.finish();
    auto read = read_replay(file.path());
    REQUIRE(read.ok());
    const Replay& r = *read;
    REQUIRE(r.header.map.discs.size() == 1);
    CHECK(r.header.map.kickoff_resets_discs);
    REQUIRE(r.keyframes.size() >= 2);
    REQUIRE(r.keyframes.back().state.discs.size() == 1);
    CHECK(r.keyframes.back().state.discs[0].position == rec.match().disc_disk(0).position);
    VerifyOptions options;
    options.synctest = true;
    const VerifyReport report = verify(r, options);
    CHECK_FALSE(report.divergence.has_value());
    CHECK_FALSE(report.inconsistency.has_value());

    game::MatchState moved = r.keyframes.back().state;
    moved.discs[0].velocity.y += 1.0;
    const std::vector<FieldDiff> diffs = diff_states(r.keyframes.back().state, moved);
    REQUIRE(diffs.size() == 1);
    CHECK(diffs[0].entity == "disc 0");
    CHECK(diffs[0].field == "velocity.y");
}
