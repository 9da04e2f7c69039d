// verify (verify.hpp) checks every claim a file makes besides the state
// hashes and events: the footer (final tick, score, result), roster changes
// after the last step, the keyframe schedule (tick 0, every kKeyframeTicks,
// the final tick); the reader (reader.hpp) refuses newer core versions,
// reserved input bits and chunks out of order. Files are made by the writer
// and edited at the byte or Replay level.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstring>

#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"
#include "chunk_codec.hpp"
#include "file_format.hpp"
#include "replay_generated.h"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

namespace {

// A finished 2 v 2 match of 700 ticks: keyframes at 0, 300, 600 and 700.
// Format 1, whose chunks are FlatBuffers tables the tests below edit in place
// (format 2's packed batches share its input stream and checks).
std::vector<std::uint8_t> recorded(std::uint64_t ticks = 700) {
    test::TempFile file("file-claims");
    test::record_match(file.path(), ticks, true, 1);
    return test::read_bytes(file.path());
}

Replay read_clean(const std::vector<std::uint8_t>& bytes) {
    auto r = read_replay(bytes);
    REQUIRE(r.ok());
    Replay replay = *std::move(r);
    REQUIRE_FALSE(replay.problem.has_value());
    return replay;
}

std::string divergence_of(const Replay& r) {
    const VerifyReport report = verify(r);
    REQUIRE_FALSE(report.inconsistency.has_value());
    REQUIRE(report.divergence.has_value());
    return report.divergence->what;
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

struct ChunkSpan {
    std::size_t offset = 0;  // of the chunk header
    std::size_t size = 0;    // header + payload
};

std::vector<ChunkSpan> chunks_of(const std::vector<std::uint8_t>& bytes) {
    std::vector<ChunkSpan> out;
    for (std::size_t at = detail::kPreambleSize; at < bytes.size();) {
        const std::size_t size = detail::kChunkHeaderSize + detail::get_u32(bytes.data() + at);
        out.push_back({at, size});
        at += size;
    }
    return out;
}

// The payload of a chunk, 8-byte aligned, as a FlatBuffers Chunk.
struct Payload {
    std::vector<std::uint64_t> aligned;
    const schema::Chunk* chunk = nullptr;
    explicit Payload(const std::vector<std::uint8_t>& bytes, const ChunkSpan& c)
        : aligned((c.size - detail::kChunkHeaderSize + 7) / 8) {
        std::memcpy(aligned.data(), bytes.data() + c.offset + detail::kChunkHeaderSize,
                    c.size - detail::kChunkHeaderSize);
        chunk = schema::GetChunk(aligned.data());
    }
};

std::vector<ChunkSpan> keyframe_chunks(const std::vector<std::uint8_t>& bytes) {
    std::vector<ChunkSpan> out;
    for (const ChunkSpan& c : chunks_of(bytes))
        if (Payload(bytes, c).chunk->body_as_Keyframe()) out.push_back(c);
    return out;
}

std::vector<std::uint8_t> without(const std::vector<std::uint8_t>& bytes, const ChunkSpan& c) {
    std::vector<std::uint8_t> out(bytes.begin(), bytes.begin() + static_cast<long>(c.offset));
    out.insert(out.end(), bytes.begin() + static_cast<long>(c.offset + c.size), bytes.end());
    return out;
}

std::vector<std::uint8_t> doubled(const std::vector<std::uint8_t>& bytes, const ChunkSpan& c) {
    std::vector<std::uint8_t> out(bytes.begin(),
                                  bytes.begin() + static_cast<long>(c.offset + c.size));
    out.insert(out.end(), bytes.begin() + static_cast<long>(c.offset),
               bytes.begin() + static_cast<long>(c.offset + c.size));
    out.insert(out.end(), bytes.begin() + static_cast<long>(c.offset + c.size), bytes.end());
    return out;
}

}  // namespace

TEST_CASE("a footer that claims another score, result or final tick is a divergence") {
    const Replay r = read_clean(recorded());
    REQUIRE(r.footer.has_value());
    CHECK_FALSE(verify(r).divergence.has_value());
    {
        Replay changed = r;
        changed.footer->score[0] += 1;
        CHECK(contains(divergence_of(changed), "footer score"));
    }
    {
        Replay changed = r;
        changed.footer->result = r.footer->result == replay::Outcome::left_won
                                     ? replay::Outcome::right_won
                                     : replay::Outcome::left_won;
        CHECK(contains(divergence_of(changed), "footer result"));
    }
    {
        Replay changed = r;
        changed.footer->final_tick -= 1;
        CHECK(contains(divergence_of(changed), "footer final tick"));
    }
}

TEST_CASE("a roster change after the last step that the match cannot take is refused") {
    const Replay r = read_clean(recorded());
    // Slot 0 plays to the end: joining it again, or leaving the empty slot 1, is impossible.
    for (const auto& [slot, join] : {std::pair<game::Slot, bool>{0, true}, {1, false}}) {
        Replay changed = r;
        changed.roster.push_back({r.last_tick() + 1, slot, join, "x", true});
        const VerifyReport report = verify(changed);
        REQUIRE(report.inconsistency.has_value());
        CHECK(contains(*report.inconsistency, "roster"));
    }
    Replay possible = r;
    possible.roster.push_back({r.last_tick() + 1, 0, false, "", false});
    const VerifyReport report = verify(possible);
    CHECK_FALSE(report.inconsistency.has_value());
    CHECK_FALSE(report.divergence.has_value());
}

TEST_CASE("a removed or duplicated keyframe chunk is a divergence (each one in turn)") {
    const auto bytes = recorded();
    const auto keys = keyframe_chunks(bytes);
    REQUIRE(keys.size() == 4);  // ticks 0, 300, 600, 700
    CHECK(verify(read_clean(bytes)).keyframes == 4);
    for (std::size_t k = 0; k < keys.size(); ++k) {
        CAPTURE(k);
        for (const auto& edited : {without(bytes, keys[k]), doubled(bytes, keys[k])}) {
            auto r = read_replay(edited);
            if (!r) {
                CHECK_FALSE(r.error().message.empty());
                continue;
            }
            const Replay& replay = *r;
            if (replay.problem) continue;  // a refusal from that chunk on: exit 2
            CHECK(contains(divergence_of(replay), "writer's schedule"));
        }
    }
}

TEST_CASE("a file killed before the keyframe of its last tick still verifies what it holds") {
    const auto bytes = recorded();
    const auto keys = keyframe_chunks(bytes);
    REQUIRE(keys.size() == 4);
    // Cut right before the keyframe of tick 600: 600 ticks, keyframes 0 and 300.
    const std::vector<std::uint8_t> cut(bytes.begin(),
                                        bytes.begin() + static_cast<long>(keys[2].offset));
    auto r = read_replay(cut);
    REQUIRE(r.ok());
    const Replay& replay = *r;
    REQUIRE(replay.last_tick() == 600);
    REQUIRE(replay.keyframes.size() == 2);
    const VerifyReport report = verify(replay);
    CHECK_FALSE(report.divergence.has_value());
    CHECK(report.ticks == 600);
}

TEST_CASE("a newer core version is refused with the versions this build reads") {
    test::TempFile file("core-99");
    Header h;
    h.map = game::test::small_map(1);
    h.core_version = 99;
    { ReplayWriter w(file.path(), h); }
    auto r = read_replay(file.path());
    REQUIRE(!r.ok());
    CHECK(contains(r.error().message, "recorded by a newer carom: core 99, this reads 1\u2013" +
                                          std::to_string(kCoreVersion)));
    h.core_version = 0;
    { ReplayWriter w(file.path().string() + "0", h); }
    auto zero = read_replay(file.path().string() + "0");
    std::filesystem::remove(file.path().string() + "0");
    REQUIRE(!zero.ok());
    CHECK(contains(zero.error().message, "core version 0"));
}

TEST_CASE("an input byte with reserved bits set stops the read there") {
    auto bytes = recorded(130);
    bool edited = false;
    for (const ChunkSpan& c : chunks_of(bytes)) {
        Payload p(bytes, c);
        const auto* batch = p.chunk->body_as_TickBatch();
        if (!batch || !batch->inputs() || batch->inputs()->size() < 2) continue;
        // Skip the first change's varint; the byte after it is its input.
        std::size_t i = 0;
        while (batch->inputs()->Get(static_cast<flatbuffers::uoffset_t>(i)) & 0x80)
            ++i;
        const auto* base = reinterpret_cast<const std::uint8_t*>(p.aligned.data());
        const std::size_t in_payload =
            static_cast<std::size_t>(batch->inputs()->Data() - base) + i + 1;
        const std::size_t payload_at = c.offset + detail::kChunkHeaderSize;
        bytes[payload_at + in_payload] |= 0x80;
        const std::uint64_t sum = detail::checksum(std::span<const std::uint8_t>(bytes).subspan(
            payload_at, c.size - detail::kChunkHeaderSize));
        detail::put_u64(bytes.data() + c.offset + 4, sum);
        edited = true;
        break;
    }
    REQUIRE(edited);
    auto r = read_replay(bytes);
    REQUIRE(r.ok());
    const Replay& replay = *r;
    REQUIRE(replay.problem.has_value());
    CHECK(contains(replay.problem->reason, "reserved input bits"));
}

TEST_CASE("two input changes for one tick and slot stop the read there") {
    // The writer puts one change per tick and slot, in slot order; a file that
    // repeats one could hold any number of changes per tick.
    auto bytes = recorded(130);
    bool edited = false;
    for (const ChunkSpan& c : chunks_of(bytes)) {
        Payload p(bytes, c);
        const auto* batch = p.chunk->body_as_TickBatch();
        if (!batch || !batch->inputs() || batch->inputs()->size() < 4) continue;
        const auto& in = *batch->inputs();
        // The first change: varint (tick offset * 32 + slot), input byte.
        flatbuffers::uoffset_t i = 0;
        std::uint64_t first = 0;
        for (int shift = 0;; shift += 7) {
            first |= std::uint64_t{in[i] & 0x7Fu} << shift;
            if ((in[i++] & 0x80) == 0) break;
        }
        ++i;
        // The second change's varint, as long as it is, becomes "same tick,
        // the first change's slot" (a longer encoding of the same number).
        flatbuffers::uoffset_t end = i;
        while (end < in.size() && (in[end] & 0x80) != 0)
            ++end;
        if (end >= in.size()) continue;
        const auto* base = reinterpret_cast<const std::uint8_t*>(p.aligned.data());
        const std::size_t payload_at = c.offset + detail::kChunkHeaderSize;
        const std::size_t at = payload_at + static_cast<std::size_t>(in.Data() - base);
        for (flatbuffers::uoffset_t k = i; k <= end; ++k)
            bytes[at + k] = k == end ? 0x00 : 0x80;
        bytes[at + i] = static_cast<std::uint8_t>(bytes[at + i] | (first % detail::kMaxSlots));
        const std::uint64_t sum = detail::checksum(std::span<const std::uint8_t>(bytes).subspan(
            payload_at, c.size - detail::kChunkHeaderSize));
        detail::put_u64(bytes.data() + c.offset + 4, sum);
        edited = true;
        break;
    }
    REQUIRE(edited);
    auto r = read_replay(bytes);
    REQUIRE(r.ok());
    const Replay& replay = *r;
    REQUIRE(replay.problem.has_value());
    CAPTURE(replay.problem->reason);
    CHECK(contains(replay.problem->reason, "(changes go in (tick, slot) order)"));
}

TEST_CASE("chunks out of order stop the read at the first one out of place") {
    const auto bytes = recorded();
    const auto all = chunks_of(bytes);
    REQUIRE(all.size() > 6);
    // Every pair of neighbouring chunks after the header, swapped.
    for (std::size_t i = 1; i + 1 < all.size(); ++i) {
        CAPTURE(i);
        std::vector<std::uint8_t> swapped(bytes.begin(),
                                          bytes.begin() + static_cast<long>(all[i].offset));
        const auto piece = [&](const ChunkSpan& c) {
            swapped.insert(swapped.end(), bytes.begin() + static_cast<long>(c.offset),
                           bytes.begin() + static_cast<long>(c.offset + c.size));
        };
        piece(all[i + 1]);
        piece(all[i]);
        swapped.insert(swapped.end(),
                       bytes.begin() + static_cast<long>(all[i + 1].offset + all[i + 1].size),
                       bytes.end());
        auto r = read_replay(swapped);
        REQUIRE(r.ok());
        const Replay& replay = *r;
        REQUIRE(replay.problem.has_value());
        // At the first of the pair, or at the second when the first still fits there.
        CHECK((replay.problem->offset == all[i].offset ||
               replay.problem->offset == all[i].offset + all[i + 1].size));
    }
}
