// Damaged files (reader.hpp): every kind of damage is refused or stops the
// read with a reason and a byte offset; none crashes or hangs.
#include <doctest/doctest.h>
#include <unistd.h>

#include "carom/replay/reader.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

namespace {

std::vector<std::uint8_t> small_replay() {
    test::TempFile file("bad-files");
    test::record_match(file.path(), 130);
    return test::read_bytes(file.path());
}

// What reading saw: refused outright, or read with a problem, or clean.
enum class ReadOutcome { refused, partial, clean };

ReadOutcome read_outcome(const std::vector<std::uint8_t>& bytes, std::string* reason = nullptr) {
    auto r = read_replay(bytes);
    if (!r) {
        if (reason) *reason = r.error().message;
        return ReadOutcome::refused;
    }
    const Replay& replay = *r;
    if (replay.problem) {
        if (reason) *reason = replay.problem->reason;
        return ReadOutcome::partial;
    }
    return ReadOutcome::clean;
}

bool contains(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("Empty, wrong magic and newer versions are refused with the reason") {
    std::string reason;
    CHECK(read_outcome({}, &reason) == ReadOutcome::refused);
    CHECK(reason == "at byte 0: empty file");

    auto bytes = small_replay();
    REQUIRE(read_outcome(bytes) == ReadOutcome::clean);
    auto wrong = bytes;
    wrong[0] = 'X';
    CHECK(read_outcome(wrong, &reason) == ReadOutcome::refused);
    CHECK(contains(reason, "bad magic"));

    auto newer = bytes;
    newer[8] = static_cast<std::uint8_t>(kFormatVersion + 1);
    CHECK(read_outcome(newer, &reason) == ReadOutcome::refused);
    CHECK(contains(reason, "newer than this build reads"));
}

TEST_CASE("A huge size field is refused before anything is allocated") {
    auto bytes = small_replay();
    // The header chunk's size field, right after the 12-byte preamble.
    for (std::size_t i = 12; i < 16; ++i)
        bytes[i] = 0xFF;
    std::string reason;
    CHECK(read_outcome(bytes, &reason) == ReadOutcome::refused);
    CHECK(contains(reason, "out of range"));
}

TEST_CASE("A file cut anywhere reads up to its last complete chunk") {
    const auto bytes = small_replay();
    const auto whole = *read_replay(bytes);
    std::uint64_t previous_ticks = 0;
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
        const std::vector<std::uint8_t> part(bytes.begin(), bytes.begin() + static_cast<long>(cut));
        auto r = read_replay(part);
        if (!r.ok()) {
            CHECK(previous_ticks == 0);  // only a cut inside the preamble or header refuses
            continue;
        }
        const Replay& replay = *r;
        REQUIRE(replay.problem.has_value());
        CHECK(replay.last_tick() >= previous_ticks);
        previous_ticks = replay.last_tick();
        // What was read is exactly the start of the whole.
        for (std::size_t i = 0; i < replay.hashes.size(); ++i)
            REQUIRE(replay.hashes[i] == whole.hashes[i]);
    }
    CHECK(previous_ticks == whole.last_tick());  // the footer was the last thing missing
}

TEST_CASE("Every single-bit flip is caught") {
    const auto bytes = small_replay();
    std::size_t refused = 0, partial = 0;
    // Every bit of the first 300 bytes (preamble, header), then a spread over the rest.
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < std::min<std::size_t>(300, bytes.size()); ++i)
        positions.push_back(i);
    for (std::size_t i = 300; i < bytes.size(); i += 37)
        positions.push_back(i);
    for (const std::size_t at : positions) {
        for (int bit = 0; bit < 8; ++bit) {
            auto damaged = bytes;
            damaged[at] ^= static_cast<std::uint8_t>(1u << bit);
            CAPTURE(at);
            CAPTURE(bit);
            const ReadOutcome o = read_outcome(damaged);
            CHECK(o != ReadOutcome::clean);
            refused += o == ReadOutcome::refused;
            partial += o == ReadOutcome::partial;
        }
    }
    CHECK(refused > 0);
    CHECK(partial > 0);
}

TEST_CASE("A damaged chunk is reported with its byte offset") {
    auto bytes = small_replay();
    const std::size_t at = bytes.size() - 5;  // inside the footer chunk
    bytes[at] ^= 0x10;
    auto r = *read_replay(bytes);
    REQUIRE(r.problem.has_value());
    CHECK(contains(r.problem->reason, "checksum mismatch"));
    CHECK(r.problem->offset < at);
    CHECK(r.problem->offset > 12);
    CHECK(r.last_tick() == 130);
}
