// Writer, reader and verify (writer.hpp, reader.hpp, verify.hpp) on a recorded match.
#include <doctest/doctest.h>
#include <unistd.h>

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
