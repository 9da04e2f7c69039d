// Taking over a player of a corpus replay at a tick: the branch starts from
// the replay's exact state, records what is played and verifies alone.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "carom/replay/field_diff.hpp"
#include "carom/replay/file_hash.hpp"
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"
#include "carom/replay_view/seek.hpp"
#include "carom/replay_view/takeover.hpp"
#include "corpus.hpp"

namespace carom::tool {
namespace {

using namespace carom::replay_view;

const std::string kParent = std::string(CAROM_CORPUS_DIR) + "/duel-rink.crpl";

replay::Replay read(const std::string& path) {
    auto r = replay::read_replay(path);
    REQUIRE_MESSAGE(r.ok(), path, " is unreadable");
    return *std::move(r);
}

class TempPath {
  public:
    explicit TempPath(const std::string& stem)
        : path_(std::filesystem::temp_directory_path() /
                (stem + "-" + std::to_string(::getpid()) + ".crpl")) {
        std::filesystem::remove(path_);
    }
    ~TempPath() { std::filesystem::remove(path_); }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

replay::ParentReplay parent_of(const std::string& path) {
    const auto hash = replay::file_hash(path);
    REQUIRE(hash.ok());
    return {*hash, std::filesystem::path(path).filename().string()};
}

void check_verifies(const replay::Replay& branch) {
    replay::VerifyOptions options;
    options.synctest = true;
    const replay::VerifyReport report = replay::verify(branch, options);
    CHECK_MESSAGE(!report.divergence, (report.divergence ? report.divergence->what : ""));
    CHECK_MESSAGE(!report.inconsistency, report.inconsistency.value_or(""));
    CHECK(report.ticks == branch.last_tick() - branch.first_tick());
}

TEST_CASE("a takeover's branch starts from the parent's exact state, names it and verifies alone") {
    const replay::Replay parent = read(kParent);
    const std::uint64_t tick = 1000;
    SeekEngine engine(parent);
    REQUIRE(engine.seek(tick).ok());
    const auto roster = roster_at(parent, tick);
    REQUIRE_FALSE(roster.empty());
    for (const Others others : {Others::bot, Others::recorded}) {
        CAPTURE(static_cast<int>(others));
        TempPath file("takeover");
        auto takeover = Takeover::start(parent, parent_of(kParent), engine.match(), roster[0].slot,
                                        others, file.path());
        REQUIRE(takeover.ok());
        CHECK(takeover->match().state_hash() == engine.match().state_hash());
        for (int t = 0; t < 400; ++t) {
            const game::Input input =
                game::Input::move(static_cast<std::uint8_t>(t / 20), t % 50 == 0);
            REQUIRE(takeover->step(input).ok());
        }
        REQUIRE(takeover->finish().ok());

        const replay::Replay branch = read(file.path().string());
        CHECK_FALSE(branch.problem);
        CHECK(branch.header.start_tick == tick);
        REQUIRE(branch.header.parent);
        CHECK(branch.header.parent->hash == *replay::file_hash(kParent));
        CHECK(branch.header.parent->name == "duel-rink.crpl");
        CHECK(branch.first_tick() == tick);
        CHECK(branch.last_tick() == tick + 400);
        REQUIRE(branch.keyframes.size() == 3);  // the start, 1200, the final tick
        CHECK(branch.keyframes[0].state.tick == tick);
        CHECK(branch.keyframes[0].hash == engine.match().state_hash());
        CHECK_FALSE(branch.keyframes[0].world.empty());
        CHECK(branch.keyframes[1].state.tick == 1200);
        check_verifies(branch);
        // It diverges from the parent (the keys differ from the recorded play).
        bool differs = false;
        for (std::uint64_t t = tick + 1; t <= branch.last_tick(); ++t)
            differs = differs || branch.hash_after(t) != parent.hash_after(t);
        CHECK(differs);
    }
}

TEST_CASE(
    "steering the taken slot as the recording did, with the others recorded, replays the parent") {
    const replay::Replay parent = read(kParent);
    const std::uint64_t tick = 2345;
    SeekEngine engine(parent), ahead(parent);
    REQUIRE(engine.seek(tick).ok());
    REQUIRE(ahead.seek(tick).ok());
    const game::Slot slot = roster_at(parent, tick).back().slot;
    TempPath file("takeover-same");
    auto takeover = Takeover::start(parent, parent_of(kParent), engine.match(), slot,
                                    Others::recorded, file.path());
    REQUIRE(takeover.ok());
    for (std::uint64_t t = tick + 1; t <= tick + 700; ++t) {
        REQUIRE(ahead.seek(t).ok());
        REQUIRE(takeover->step(ahead.match().last_input(slot)).ok());
        REQUIRE(takeover->match().state_hash() == ahead.match().state_hash());
    }
    REQUIRE(takeover->finish().ok());
    const replay::Replay branch = read(file.path().string());
    for (std::uint64_t t = tick + 1; t <= branch.last_tick(); ++t)
        CHECK(branch.hash_after(t) == parent.hash_after(t));
    check_verifies(branch);
}

TEST_CASE("with the others recorded, the bot plays them on past the parent's end") {
    const replay::Replay parent = read(kParent);
    const std::uint64_t tick = parent.last_tick() - 30;
    SeekEngine engine(parent);
    REQUIRE(engine.seek(tick).ok());
    TempPath file("takeover-end");
    auto takeover = Takeover::start(parent, parent_of(kParent), engine.match(),
                                    roster_at(parent, tick)[0].slot, Others::recorded, file.path());
    REQUIRE(takeover.ok());
    for (int t = 0; t < 100 && takeover->match().phase() != game::Phase::finished; ++t) {
        CHECK(takeover->playing_recorded() == (takeover->match().tick() < parent.last_tick()));
        REQUIRE(takeover->step(game::Input::move(3)).ok());
    }
    REQUIRE(takeover->finish().ok());
    check_verifies(read(file.path().string()));
}

TEST_CASE("a branch of a branch starts from the branch's state and verifies alone") {
    const replay::Replay parent = read(kParent);
    SeekEngine engine(parent);
    REQUIRE(engine.seek(600).ok());
    TempPath first("takeover-first"), second("takeover-second");
    {
        auto takeover = Takeover::start(parent, parent_of(kParent), engine.match(),
                                        roster_at(parent, 600)[0].slot, Others::bot, first.path());
        REQUIRE(takeover.ok());
        for (int t = 0; t < 200; ++t)
            REQUIRE(takeover->step(game::Input::move(5, t % 30 == 0)).ok());
        REQUIRE(takeover->finish().ok());
    }
    const replay::Replay branch = read(first.path().string());
    SeekEngine on_branch(branch);
    CHECK(on_branch.tick() == 600);
    REQUIRE(on_branch.seek(0).ok());  // clamped to the branch's start
    CHECK(on_branch.tick() == 600);
    REQUIRE(on_branch.seek(750).ok());
    auto again = Takeover::start(branch, parent_of(first.path().string()), on_branch.match(),
                                 roster_at(branch, 750)[0].slot, Others::recorded, second.path());
    REQUIRE(again.ok());
    for (int t = 0; t < 90; ++t)
        REQUIRE(again->step(game::Input::move(9)).ok());
    REQUIRE(again->finish().ok());
    const replay::Replay twice = read(second.path().string());
    CHECK(twice.first_tick() == 750);
    check_verifies(twice);
    // A takeover left at once is a branch of no ticks: it verifies too.
    TempPath empty("takeover-empty");
    auto none = Takeover::start(branch, parent_of(first.path().string()), on_branch.match(),
                                roster_at(branch, 750)[0].slot, Others::bot, empty.path());
    REQUIRE(none.ok());
    REQUIRE(none->finish().ok());
    const replay::Replay nothing = read(empty.path().string());
    CHECK(nothing.last_tick() == 750);
    check_verifies(nothing);
}

TEST_CASE("a branch of an older core's replay is recorded by this core and verifies") {
    const std::string old_core = std::string(CAROM_CORPUS_DIR) + "/core2/hard-kicks-rink.crpl";
    const replay::Replay parent = read(old_core);
    REQUIRE(parent.header.core_version < replay::kCoreVersion);
    SeekEngine engine(parent);
    REQUIRE(engine.seek(700).ok());
    TempPath file("takeover-core2");
    auto takeover = Takeover::start(parent, parent_of(old_core), engine.match(),
                                    roster_at(parent, 700)[0].slot, Others::recorded, file.path());
    REQUIRE(takeover.ok());
    for (int t = 0; t < 200; ++t)
        REQUIRE(takeover->step(game::Input::move(2, t % 40 == 0)).ok());
    REQUIRE(takeover->finish().ok());
    const replay::Replay branch = read(file.path().string());
    CHECK(branch.header.core_version == replay::kCoreVersion);
    CHECK(replay::diff_states(branch.keyframes[0].state, engine.match().save()).empty());
    check_verifies(branch);
}

TEST_CASE("a takeover past the end, of an empty slot or out of range is refused with the reason") {
    const replay::Replay parent = read(kParent);
    const auto past = can_take_over(parent, parent.last_tick() + 1, 0);
    REQUIRE_FALSE(past.ok());
    CHECK(past.error().message.find("past the end") != std::string::npos);
    const std::uint32_t slots = 2 * parent.header.map.team_size;
    const auto range = can_take_over(parent, 10, slots);
    REQUIRE_FALSE(range.ok());
    CHECK(range.error().message.find("out of range") != std::string::npos);
    const auto roster = roster_at(parent, 10);
    REQUIRE(roster.size() < slots);  // a slot nobody holds
    game::Slot empty = 0;
    while (std::any_of(roster.begin(), roster.end(),
                       [&](const game::RosterEntry& p) { return p.slot == empty; }))
        ++empty;
    const auto nobody = can_take_over(parent, 10, empty);
    REQUIRE_FALSE(nobody.ok());
    CHECK(nobody.error().message.find("nobody holds slot") != std::string::npos);
}

}  // namespace
}  // namespace carom::tool
