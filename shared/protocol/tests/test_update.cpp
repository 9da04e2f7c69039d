// ServerUpdate (update.hpp): round trips, the stream against PROTOCOL.md bit
// for bit, its size, and streams that must be refused (never a crash or a
// read past the end).
#include "carom/protocol/update.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>

#include <doctest/doctest.h>

#include "carom/protocol/packet.hpp"
#include "spec_stream.hpp"

using namespace carom;
using protocol::InputDelta;
using protocol::Update;
using protocol::UpdateContext;
using protocol::test::SpecStream;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes encode(const Update& u, const UpdateContext& c) {
    flatbuffers::FlatBufferBuilder b;
    const auto bytes = protocol::encode_update(b, u, c);
    return {bytes.begin(), bytes.end()};
}

const net::ServerUpdate& update_of(const Bytes& bytes) {
    const auto v = protocol::verify_server_update(bytes);
    REQUIRE_MESSAGE(v.ok(), v.error().message);
    return **v;
}

// The stream as sent: the head's six bytes, then `more`.
Bytes stream_of(const Bytes& bytes) {
    const net::ServerUpdate& u = update_of(bytes);
    Bytes s(u.head()->stream()->begin(), u.head()->stream()->end());
    if (u.more() != nullptr) s.insert(s.end(), u.more()->begin(), u.more()->end());
    return s;
}

constexpr std::size_t kHeadStream = 4;  // UpdateHead.stream

// A ServerUpdate built by hand around `stream`.
Bytes raw_update(std::uint64_t tick, const Bytes& stream,
                 const std::vector<game::RosterChange>& roster = {}) {
    flatbuffers::FlatBufferBuilder b;
    std::array<std::uint8_t, kHeadStream> head_bytes{};
    std::copy_n(stream.begin(), std::min(stream.size(), kHeadStream), head_bytes.begin());
    flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> more;
    if (stream.size() > kHeadStream)
        more = b.CreateVector(stream.data() + kHeadStream, stream.size() - kHeadStream);
    std::vector<flatbuffers::Offset<net::RosterChange>> changes;
    for (const auto& r : roster)
        changes.push_back(net::CreateRosterChange(b, r.tick, static_cast<std::uint16_t>(r.slot),
                                                  r.join, b.CreateString(r.name), r.bot));
    const auto roster_offset = roster.empty() ? 0 : b.CreateVector(changes);
    const net::UpdateHead head(static_cast<std::uint16_t>(tick), 0,
                               flatbuffers::span<const std::uint8_t, kHeadStream>(head_bytes));
    net::ServerUpdateBuilder u(b);
    u.add_head(&head);
    if (!more.IsNull()) u.add_more(more);
    if (!roster.empty()) u.add_roster(roster_offset);
    b.Finish(u.Finish(), protocol::kServerUpdateIdentifier);
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

// (Built by appending: gcc 12 warns falsely on "literal" + std::string.)
std::string named(char first, std::uint64_t n) {
    std::string s(1, first);
    s += std::to_string(n);
    return s;
}

InputDelta random_delta(std::mt19937_64& rng) {
    switch (rng() % 4) {
        case 0:
            return {InputDelta::Kind::kick_flip, 0};
        case 1:
            return {InputDelta::Kind::turn_left, 0};
        case 2:
            return {InputDelta::Kind::turn_right, 0};
        default:
            return {InputDelta::Kind::literal, static_cast<std::uint8_t>(rng() % 64)};
    }
}

Update random_update(std::mt19937_64& rng, const UpdateContext& c) {
    Update u;
    u.tick = 100 + rng() % 1'000'000;
    const std::uint64_t n =
        rng() % 10 == 0 ? 1 + rng() % protocol::kMaxUpdateTicks : 1 + rng() % 20;
    u.baseline = u.tick - n;
    u.state = static_cast<std::uint16_t>(rng());
    if (c.player)
        u.sequence_advance = rng() % 4 == 0 ? static_cast<std::uint32_t>(rng())
                                            : static_cast<std::uint32_t>(n + rng() % 3 - 1);
    // About as many changes as a datagram holds, whatever the span.
    const std::uint64_t one_in = 1 + n * c.slots / 200;
    for (std::uint64_t t = u.baseline + 1; t <= u.tick; ++t)
        for (game::Slot s = 0; s < c.slots; ++s)
            if (rng() % one_in == 0) u.inputs.push_back({t, s, random_delta(rng)});
    if (rng() % 4 == 0)
        for (int i = 0; i < 3; ++i) {
            const std::uint64_t t = u.baseline + 1 + rng() % n;
            u.roster.push_back({t, static_cast<game::Slot>(rng() % c.slots), rng() % 2 == 0,
                                named('p', rng() % 1000), rng() % 2 == 0});
        }
    std::sort(u.roster.begin(), u.roster.end(),
              [](const auto& a, const auto& b) { return a.tick < b.tick; });
    for (auto& r : u.roster)
        if (!r.join) r.name.clear(), r.bot = false;
    if (rng() % 5 == 0) {
        protocol::MatchStart m{u.baseline + 1 + rng() % n, rng(), {}};
        for (game::Slot s = 0; s < c.slots; ++s)
            if (rng() % 2 == 0) m.slots.push_back({s, named('s', s), rng() % 2 == 0});
        u.match_start = m;
    }
    if (rng() % 6 == 0) u.halted_since = u.baseline + rng() % (n + 1);
    if (rng() % 3 == 0) u.server_tick_ms = static_cast<float>(rng() % 1000) / 100.0F;
    return u;
}

Bytes spec_stream(const Update& u, const UpdateContext& c) {
    SpecStream w;
    const std::uint64_t n = u.tick - u.baseline;
    w.code(n - 1);
    if (c.player)
        w.signed_code(
            static_cast<std::int32_t>(u.sequence_advance - static_cast<std::uint32_t>(n)));
    w.code(u.inputs.size());
    int width = 0;
    while ((std::uint32_t{1} << width) < c.slots)
        ++width;
    std::uint64_t previous = u.baseline + 1;
    for (const protocol::InputChange& ch : u.inputs) {
        w.code(ch.tick - previous);
        previous = ch.tick;
        w.fixed(ch.slot, width);
        w.delta(ch.delta);
    }
    Bytes bytes = w.bytes();
    if (bytes.size() < kHeadStream) bytes.resize(kHeadStream, 0);
    return bytes;
}

}  // namespace

TEST_CASE("an input change is the kick flipped, a turn of one step, or the input itself") {
    // Every pair of inputs: the change read back gives the applied input.
    int short_codes = 0;
    for (unsigned h = 0; h < 64; ++h) {
        for (unsigned a = 0; a < 64; ++a) {
            const auto held = game::Input::from_bits(static_cast<std::uint8_t>(h));
            const auto applied = game::Input::from_bits(static_cast<std::uint8_t>(a));
            const InputDelta d = InputDelta::between(held, applied);
            CHECK(d.applied_to(held) == applied);
            short_codes += d.kind != InputDelta::Kind::literal ? 1 : 0;
        }
    }
    CHECK(short_codes == 64 * 3);  // each input has one kick flip and two turns
    const game::Input east = game::Input::move(0), east_kick = game::Input::move(0, true);
    CHECK(InputDelta::between(east, east_kick).kind == InputDelta::Kind::kick_flip);
    CHECK(InputDelta::between(east, game::Input::move(1)).kind == InputDelta::Kind::turn_left);
    CHECK(InputDelta::between(east, game::Input::move(15)).kind == InputDelta::Kind::turn_right);
    CHECK(InputDelta::between(east, game::Input::idle()).kind == InputDelta::Kind::literal);
}

TEST_CASE("updates round-trip and their stream is PROTOCOL.md's, bit for bit") {
    const std::uint64_t seed = 0x5eed'0005'0001ULL;
    std::printf("test_update: random updates against the spec, seed %llu\n",
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 3000; ++round) {
        const UpdateContext c{static_cast<std::uint32_t>(1 + rng() % 32), rng() % 3 != 0};
        const Update u = random_update(rng, c);
        CAPTURE(round);
        const Bytes bytes = encode(u, c);
        REQUIRE(bytes.size() <= protocol::kMaxDatagramBytes);
        CHECK(protocol::classify(bytes) == protocol::DatagramKind::server_update);
        CHECK(update_of(bytes).head()->tick() == static_cast<std::uint16_t>(u.tick));
        CHECK(stream_of(bytes) == spec_stream(u, c));
        const auto back = protocol::decode_update(update_of(bytes), u.tick, c);
        REQUIRE_MESSAGE(back.ok(), back.error().message);
        CHECK(*back == u);
    }
    // PROTOCOL.md's example: n = 2, a player whose sequence moved 2, one change
    // of slot 5 (of 8) at the update's tick: the kick pressed.
    const UpdateContext c{8, true};
    Update u;
    u.tick = 1002;
    u.baseline = 1000;
    u.sequence_advance = 2;
    u.inputs = {{1002, 5, {InputDelta::Kind::kick_flip, 0}}};
    // 010 (n - 1 = 1), 1 (advance - n = 0), 010 (one change), 010 (step 1),
    // 101 (slot 5, low bit first), 00 (the kick flipped): 15 bits.
    CHECK(stream_of(encode(u, c)) == Bytes{0x2A, 0x15, 0, 0});
}

TEST_CASE("an update that fits its head is 28 bytes") {
    const UpdateContext c{8, true};
    Update u;
    u.tick = 500;
    u.baseline = 499;
    u.sequence_advance = 1;
    CHECK(encode(u, c).size() == 28);
    // Two literal changes fit the head's 32 bits (1 + 1 + 3 + 2 x 11); a
    // third spills into `more`.
    for (game::Slot s = 0; s < 2; ++s)
        u.inputs.push_back({500, s, {InputDelta::Kind::literal, 0x13}});
    CHECK(encode(u, c).size() == 28);
    u.inputs.push_back({500, 2, {InputDelta::Kind::literal, 0x13}});
    CHECK(encode(u, c).size() == 40);
    const auto back = protocol::decode_update(update_of(encode(u, c)), 500, c);
    REQUIRE(back.ok());
    CHECK(*back == u);
}

TEST_CASE("malformed update streams are refused with a reason") {
    const UpdateContext c{6, false};
    const auto refused = [&](const Bytes& bytes, std::uint64_t tick, const char* why) {
        CAPTURE(why);
        const auto r = protocol::decode_update(update_of(bytes), tick, c);
        CHECK_FALSE(r.ok());
        if (!r.ok()) MESSAGE(r.error().message);
    };
    {
        // Three changes announced, one given: the next step code's zeros run to the end.
        SpecStream w;
        w.code(0), w.code(3), w.code(0), w.fixed(1, 3), w.delta({InputDelta::Kind::kick_flip, 0});
        refused(raw_update(50, w.bytes()), 50, "truncated");
    }
    {
        SpecStream w;
        w.code(0), w.code(0), w.bit(true);
        refused(raw_update(50, w.bytes()), 50, "a bit left over");
    }
    {
        SpecStream w;
        w.code(0), w.code(0);
        Bytes b = w.bytes();
        b.resize(8, 0);  // a `more` of two zero bytes the stream does not need
        refused(raw_update(50, b), 50, "bytes left over");
    }
    {
        SpecStream w;  // slot 7 of 6
        w.code(0), w.code(1), w.code(0), w.fixed(7, 3), w.delta({InputDelta::Kind::kick_flip, 0});
        refused(raw_update(50, w.bytes()), 50, "slot out of range");
    }
    {
        SpecStream w;  // slot 3 then slot 2 at the same tick
        w.code(0), w.code(2);
        w.code(0), w.fixed(3, 3), w.delta({InputDelta::Kind::kick_flip, 0});
        w.code(0), w.fixed(2, 3), w.delta({InputDelta::Kind::kick_flip, 0});
        refused(raw_update(50, w.bytes()), 50, "slots out of order");
    }
    {
        SpecStream w;  // n = 1, a change one tick after the update's tick
        w.code(0), w.code(1), w.code(1), w.fixed(0, 3), w.delta({InputDelta::Kind::kick_flip, 0});
        refused(raw_update(50, w.bytes()), 50, "change after the tick");
    }
    {
        SpecStream w;  // n = 1 and 7 changes of 6 slots
        w.code(0), w.code(7);
        refused(raw_update(50, w.bytes()), 50, "more changes than slots");
    }
    {
        SpecStream w;  // a baseline before tick 0, and one beyond the longest update
        w.code(60), w.code(0);
        refused(raw_update(50, w.bytes()), 50, "baseline before tick 0");
        SpecStream x;
        x.code(protocol::kMaxUpdateTicks), x.code(0);
        refused(raw_update(5000, x.bytes()), 5000, "baseline too old");
    }
    {
        SpecStream w;
        w.code(1), w.code(0);  // ticks 49 and 50
        refused(raw_update(50, w.bytes(), {{48, 0, true, "x", false}}), 50, "roster before");
        refused(raw_update(50, w.bytes(), {{51, 0, true, "x", false}}), 50, "roster after");
        refused(raw_update(50, w.bytes(), {{50, 0, true, "x", false}, {49, 0, false, "", false}}),
                50, "roster out of order");
        refused(raw_update(50, w.bytes(), {{50, 6, true, "x", false}}), 50, "roster slot");
        refused(raw_update(50, w.bytes(), {{50, 1, true, std::string(16, 'n'), false}}), 50,
                "roster name");
        const auto fine = protocol::decode_update(
            update_of(raw_update(50, w.bytes(), {{49, 1, true, "ok", true}})), 50, c);
        REQUIRE(fine.ok());
        CHECK(fine->roster.size() == 1);
    }
}

TEST_CASE("garbage and damaged update streams never crash") {
    const std::uint64_t seed = 0x5eed'0005'0002ULL;
    std::printf("test_update: garbage streams, seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    int decoded = 0;
    for (int round = 0; round < 20000; ++round) {
        const UpdateContext c{static_cast<std::uint32_t>(1 + rng() % 32), rng() % 2 == 0};
        Bytes stream(static_cast<std::size_t>(rng() % 40));
        for (auto& byte : stream)
            byte = static_cast<std::uint8_t>(rng() % 4 == 0 ? 0 : rng());
        const std::uint64_t tick = rng() % 3 == 0 ? rng() % 100 : rng();
        const auto r = protocol::decode_update(update_of(raw_update(tick, stream)), tick, c);
        decoded += r.ok() ? 1 : 0;
    }
    MESSAGE(decoded << " of 20000 random streams decoded");
    CHECK(decoded > 0);
}

TEST_CASE("PROTOCOL.md's steady-state ServerUpdate, byte for byte") {
    // Tick 70002 against baseline 69994 (n = 8) for a player whose sequence
    // moved 8, four changes: slot 2 turned left at 69996, slot 5 kicked and
    // slot 6 took input 0x13 at 69999, slot 0 turned right at 70001.
    Update u;
    u.tick = 70'002;
    u.baseline = 69'994;
    u.state = 0x5A6B;
    u.sequence_advance = 8;
    using K = InputDelta::Kind;
    u.inputs = {{69'996, 2, {K::turn_left, 0}},
                {69'999, 5, {K::kick_flip, 0}},
                {69'999, 6, {K::literal, 0x13}},
                {70'001, 0, {K::turn_right, 0}}};
    const Bytes expected{
        0x10, 0x00, 0x00, 0x00,  // root: the table at 16
        'C',  'N',  'S',  'U',   // file identifier
        0x08, 0x00, 0x10, 0x00,  // vtable: 8 bytes long, the table 16
        0x08, 0x00, 0x04, 0x00,  // head at table + 8, more at table + 4
        0x08, 0x00, 0x00, 0x00,  // the table: its vtable 8 bytes before it
        0x0C, 0x00, 0x00, 0x00,  // more: the vector 12 bytes on (at 32)
        0x72, 0x11,              // head.tick: 70002 mod 2^16
        0x6B, 0x5A,              // head.state
        0x88, 0x54, 0x12, 0x29,  // head.stream: its first 4 bytes
        0x03, 0x00, 0x00, 0x00,  // more: 3 bytes
        0x7D, 0x32, 0x0C, 0x00,  // the stream's 5th to 7th bytes, then padding
    };
    CHECK(encode(u, {8, true}) == expected);
}

TEST_CASE("PROTOCOL.md's ServerUpdate without `more`, byte for byte but its stream") {
    // One tick on, the sequence moved 1, no change: a stream of a few bits.
    Update u;
    u.tick = 70'002;
    u.baseline = 70'001;
    u.state = 0x5A6B;
    u.sequence_advance = 1;
    const Bytes bytes = encode(u, {8, true});
    REQUIRE(bytes.size() == 28);
    const Bytes framing{
        0x10, 0x00, 0x00, 0x00,              // root: the table at 16
        'C',  'N',  'S',  'U',               // file identifier
        0x00, 0x00,                          // padding
        0x06, 0x00, 0x0C, 0x00, 0x04, 0x00,  // vtable: 6 bytes, the table 12, head at table + 4
        0x06, 0x00, 0x00, 0x00,              // the table: its vtable 6 bytes before it
        0x72, 0x11,                          // head.tick
        0x6B, 0x5A,                          // head.state
    };
    CHECK(Bytes(bytes.begin(), bytes.begin() + 24) == framing);
}
