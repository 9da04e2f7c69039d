// Format 3: a match that starts from a state (a branch of another replay,
// naming its parent) is written, read and verified alone; the reader and
// verify refuse what such a file gets wrong.
#include <doctest/doctest.h>
#include <unistd.h>

#include <memory>

#include "carom/replay/file_hash.hpp"
#include "carom/replay/reader.hpp"
#include "carom/replay/resimulation.hpp"
#include "carom/replay/verify.hpp"
#include "file_format.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

namespace {

constexpr std::uint64_t kBranchTick = 450;

// The parent's match at `tick`, as a match of its own to step on.
std::unique_ptr<game::Match> match_at(const Replay& parent, std::uint64_t tick) {
    Resimulation sim(parent);
    while (sim.tick() < tick)
        REQUIRE(sim.step().ok());
    auto match = std::make_unique<game::Match>(parent.header.map, parent.header.seed);
    match->restore(sim.match().save());
    REQUIRE(match->state_hash() == sim.match().state_hash());
    return match;
}

// Who holds each slot of the parent's match at `tick` (record_match's roster).
std::vector<game::RosterEntry> players_of(const game::Match& match) {
    std::vector<game::RosterEntry> players;
    for (game::Slot s = 0; s < match.slot_count(); ++s)
        if (match.active(s)) players.push_back({s, match.name(s), true});
    return players;
}

// A branch of the parent at kBranchTick, `ticks` long, every slot steered
// by the bot but slot 0, which moves in circles.
void record_branch(const std::filesystem::path& parent_path, const std::filesystem::path& path,
                   std::uint64_t ticks) {
    auto parent = read_replay(parent_path);
    REQUIRE(parent.ok());
    auto match = match_at(*parent, kBranchTick);
    const auto hash = file_hash(parent_path);
    REQUIRE(hash.ok());
    MatchRecorder recorder(path, *match, "replay tests", players_of(*match), 0, kFormatVersion, {},
                           ParentReplay{*hash, parent_path.filename().string()});
    std::vector<game::Input> in(match->slot_count());
    for (std::uint64_t t = 0; t < ticks; ++t) {
        for (game::Slot s = 0; s < in.size(); ++s)
            in[s] = s == 0 ? game::Input::move(static_cast<std::uint8_t>(t / 10))
                           : game::bot_input(*match, s);
        REQUIRE(recorder.stepped(*match, match->step(in)).ok());
    }
    REQUIRE(recorder.finish(*match).ok());
}

struct Files {
    test::TempFile parent{"branch-parent"};
    test::TempFile branch{"branch"};
    explicit Files(std::uint64_t ticks = 400) {
        test::record_match(parent.path(), 700);
        record_branch(parent.path(), branch.path(), ticks);
    }
};

Replay read_clean(const std::filesystem::path& path) {
    auto r = read_replay(path);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->problem.has_value());
    return *std::move(r);
}

}  // namespace

TEST_CASE("a branch starts from its parent's state, names it and verifies alone") {
    Files files;
    const Replay branch = read_clean(files.branch.path());
    CHECK(branch.header.format_version == 3);
    CHECK(branch.header.start_tick == kBranchTick);
    REQUIRE(branch.header.parent);
    CHECK(branch.header.parent->hash == *file_hash(files.parent.path()));
    CHECK(branch.header.parent->name == files.parent.path().filename().string());
    CHECK(branch.first_tick() == kBranchTick);
    CHECK(branch.last_tick() == kBranchTick + 400);
    REQUIRE(branch.keyframes.size() == 3);  // the start, 600, the final tick
    CHECK(branch.keyframes[0].state.tick == kBranchTick);
    CHECK_FALSE(branch.keyframes[0].world.empty());
    CHECK(branch.keyframes[1].state.tick == 600);
    CHECK(branch.keyframes[2].state.tick == kBranchTick + 400);
    const Replay parent = read_clean(files.parent.path());
    CHECK(branch.keyframes[0].hash == match_at(parent, kBranchTick)->state_hash());

    std::filesystem::remove(files.parent.path());  // not needed to verify
    VerifyOptions options;
    options.synctest = true;
    const VerifyReport report = verify(branch, options);
    CHECK_FALSE(report.divergence.has_value());
    CHECK_FALSE(report.inconsistency.has_value());
    CHECK(report.ticks == 400);
    CHECK(report.keyframes == 3);
    CHECK(report.synctest_windows == 3);
}

TEST_CASE("a branch whose starting keyframe or players were edited does not verify") {
    Files files(100);
    Replay branch = read_clean(files.branch.path());
    SUBCASE("the starting state") {
        branch.keyframes[0].state.score[0] += 1;
        const VerifyReport report = verify(branch);
        REQUIRE(report.divergence.has_value());
        CHECK(report.divergence->tick == kBranchTick);
    }
    SUBCASE("the header's players") {
        branch.header.players[0].name = "someone else";
        const VerifyReport report = verify(branch);
        REQUIRE(report.divergence.has_value());
        CHECK(report.divergence->what.find("not in the starting keyframe") != std::string::npos);
    }
    SUBCASE("a player left out") {
        branch.header.players.pop_back();
        const VerifyReport report = verify(branch);
        REQUIRE(report.divergence.has_value());
        CHECK(report.divergence->what.find("the header lists no one there") != std::string::npos);
    }
}

TEST_CASE("a branch cut before its starting keyframe is refused whole") {
    Files files(100);
    std::vector<std::uint8_t> bytes = test::read_bytes(files.branch.path());
    const std::size_t header_end =
        detail::kPreambleSize + detail::kChunkHeaderSize + detail::get_u32(bytes.data() + 12);
    bytes.resize(header_end);
    const auto read = read_replay(std::span<const std::uint8_t>(bytes));
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message.find("starting keyframe") != std::string::npos);
}

TEST_CASE("a preamble that names another format than the header is refused") {
    Files files(100);
    std::vector<std::uint8_t> bytes = test::read_bytes(files.branch.path());
    bytes[8] = 2;
    const auto read = read_replay(std::span<const std::uint8_t>(bytes));
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message.find("in the header") != std::string::npos);
}

TEST_CASE("older formats cannot hold a start tick or a parent") {
    test::TempFile parent("branch-old-parent");
    test::record_match(parent.path(), 500);
    auto read = read_replay(parent.path());
    REQUIRE(read.ok());
    auto match = match_at(*read, 300);
    test::TempFile old("branch-old");
    CHECK_THROWS_AS(MatchRecorder(old.path(), *match, "tests", players_of(*match), 0, 2),
                    std::invalid_argument);
    // A format 2 file of a match from tick 0 is written and read as before.
    test::TempFile two("branch-format-2");
    test::record_match(two.path(), 500, true, 2);
    const Replay r = read_clean(two.path());
    CHECK(r.header.format_version == 2);
    CHECK(r.first_tick() == 0);
    CHECK_FALSE(verify(r).divergence.has_value());
}
