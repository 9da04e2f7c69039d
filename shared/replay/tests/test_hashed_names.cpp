// Every value the state hash covers has a name: the world lists what it
// hashes, the tick-0 keyframe stores it, and verify and diff name a static
// shape one ulp off (core 3). Older cores hash the statics streamed and
// still verify.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "carom/physics/state_hasher.hpp"
#include "carom/replay/field_diff.hpp"
#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

namespace {

std::uint64_t digest(std::span<const physics::HashedValue> values) {
    physics::StateHasher h;
    for (const physics::HashedValue& v : values)
        h.add(v.bits);
    return h.digest();
}

Replay recorded(std::uint64_t ticks) {
    test::TempFile file("hashed-names");
    test::record_match(file.path(), ticks);
    return *read_replay(file.path());
}

bool names(const std::vector<FieldDiff>& fields, const std::string& entity_prefix,
           const std::string& field, const std::string& a, const std::string& b) {
    for (const FieldDiff& f : fields)
        if (f.entity.rfind(entity_prefix, 0) == 0 && f.field == field && f.recorded == a &&
            f.simulated == b)
            return true;
    return false;
}

}  // namespace

TEST_CASE(
    "the world's hashed values are its hash, each with a name, split where the statics start") {
    game::Match match(game::test::small_map(2), 7);
    match.join(0, "a");
    std::vector<game::Input> in(match.slot_count(), game::Input::move(3));
    for (int t = 0; t < 30; ++t)
        match.step(in);
    const physics::World& world = match.world();
    const std::vector<physics::HashedValue> values = world.hashed_values();
    REQUIRE(values.size() > 100);
    for (const physics::HashedValue& v : values) {
        CHECK_FALSE(v.entity.empty());
        CHECK_FALSE(v.field.empty());
    }
    CHECK(digest(values) == world.state_hash());
    const auto statics = std::find_if(values.begin(), values.end(), [](const auto& v) {
        return v.entity == "world" && v.field == "static slots";
    });
    REQUIRE(statics != values.end());
    CHECK(digest({values.begin(), statics}) == world.moving_hash());
    CHECK(digest({statics, values.end()}) == world.statics_digest());
}

TEST_CASE("the statics digest follows every creation and destruction of a static shape") {
    physics::World world;
    const std::uint64_t empty = world.statics_digest();
    physics::BoxDef box;
    box.box = {{1.0, 2.0}, {3.0, 4.0}, {1.0, 0.0}};
    const physics::StaticId id = world.create_box(box);
    const std::uint64_t one = world.statics_digest();
    CHECK(one != empty);
    physics::SegmentDef segment;
    segment.segment = {{0.0, 0.0}, {5.0, 0.0}};
    world.create_segment(segment);
    const std::uint64_t two = world.statics_digest();
    CHECK(two != one);
    world.destroy(id);
    const std::uint64_t after = world.statics_digest();
    CHECK(after != two);
    // Each time, what a world computing it afresh would say.
    const auto values = world.hashed_values();
    const auto statics = std::find_if(values.begin(), values.end(), [](const auto& v) {
        return v.entity == "world" && v.field == "static slots";
    });
    CHECK(digest({statics, values.end()}) == after);
    const physics::World copy = world;
    CHECK(copy.statics_digest() == after);
}

TEST_CASE("a static shape one ulp off is named by verify, with both values") {
    Replay r = recorded(120);
    REQUIRE(r.header.core_version == kCoreVersion);
    REQUIRE_FALSE(r.keyframes.at(0).world.empty());
    CHECK_FALSE(verify(r).divergence.has_value());
    const double before = r.header.map.boxes[3].center.y;
    const double after = std::nextafter(before, std::numeric_limits<double>::infinity());
    r.header.map.boxes[3].center.y = after;
    const VerifyReport report = verify(r);
    REQUIRE(report.divergence.has_value());
    CHECK(report.divergence->tick == 0);
    CHECK(report.divergence->what == "keyframe state differs from the re-simulation");
    for (const FieldDiff& f : report.divergence->fields)
        INFO(f.entity, " ", f.field, ": ", f.recorded, " vs ", f.simulated);
    CHECK(names(report.divergence->fields, "static ", "box.center.y", exact(before), exact(after)));
}

TEST_CASE("diff_starts names the map field that differs, and everything else in the header") {
    const Replay a = recorded(10);
    Header b = a.header;
    CHECK(diff_starts(a.header, b).empty());
    b.map.boxes[3].axis.x = std::nextafter(b.map.boxes[3].axis.x, 2.0);
    b.map.tuning.kick_speed += 1.0;
    b.seed += 1;
    b.players[1].name = std::string(1, 'z');
    const auto fields = diff_starts(a.header, b);
    CHECK(names(fields, "map boxes[3]", "axis.x", exact(a.header.map.boxes[3].axis.x),
                exact(b.map.boxes[3].axis.x)));
    CHECK(names(fields, "map tuning", "kick_speed", exact(a.header.map.tuning.kick_speed),
                exact(b.map.tuning.kick_speed)));
    CHECK(names(fields, "header", "seed", std::to_string(a.header.seed), std::to_string(b.seed)));
    CHECK(names(fields, "header player 1", "name", a.header.players[1].name, "z"));
    CHECK(fields.size() == 4);
}

TEST_CASE("files of core 2 hash their statics streamed and still verify") {
    for (const char* name : {"churn-rink.crpl", "hard-kicks-rink.crpl"}) {
        CAPTURE(name);
        const auto read = read_replay(std::filesystem::path(CAROM_CORPUS_DIR) / "core2" / name);
        REQUIRE(read.ok());
        const Replay& r = *read;
        CHECK(r.header.core_version == 2);
        CHECK(r.keyframes.at(0).world.empty());
        const VerifyReport report = verify(r);
        CHECK_FALSE(report.divergence.has_value());
        CHECK(report.ticks == r.last_tick());
        // Hashed the core-3 way, the same file diverges at its first tick.
        Replay as_core_3 = r;
        as_core_3.header.core_version = 3;
        const VerifyReport wrong = verify(as_core_3);
        REQUIRE(wrong.divergence.has_value());
        CHECK(wrong.divergence->tick == 0);
    }
}
