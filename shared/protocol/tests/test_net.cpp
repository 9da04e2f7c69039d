// Snapshots (net.hpp): full and delta round trips, bit for bit, and delta
// streams that must be refused with an error (never a crash or a read past
// the end).
#include "carom/protocol/net.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include <doctest/doctest.h>

using namespace carom;
using protocol::Frame;

namespace {

using Bytes = std::vector<std::uint8_t>;
constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();

Bytes copy_of(std::span<const std::uint8_t> bytes) {
    return {bytes.begin(), bytes.end()};
}

Bytes encode(const Frame& f, const Frame* baseline, protocol::SnapshotExtras extras = {}) {
    flatbuffers::FlatBufferBuilder b;
    return copy_of(protocol::encode_snapshot(b, 7, f, baseline, extras));
}

// The Snapshot in `bytes` (a vector's storage is aligned enough for the verifier).
const net::Snapshot& snapshot_of(const Bytes& bytes) {
    const protocol::VerifiedPacket v = protocol::verify_packet(bytes);
    REQUIRE(v.packet != nullptr);
    const net::Snapshot* s = v.packet->body_as_Snapshot();
    REQUIRE(s != nullptr);
    return *s;
}

std::optional<Frame> decode(const Bytes& bytes, const Frame* baseline, std::string& error) {
    return protocol::decode_snapshot(snapshot_of(bytes), baseline, error);
}

// A delta snapshot built by hand around `stream` (null: no delta field).
Bytes raw_delta(std::uint64_t tick, std::uint64_t baseline_tick, const Bytes* stream,
                bool with_updates = false) {
    flatbuffers::FlatBufferBuilder b;
    flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> delta;
    if (stream != nullptr) delta = b.CreateVector(*stream);
    flatbuffers::Offset<flatbuffers::Vector<const net::EntityUpdate*>> updates;
    if (with_updates) {
        const std::vector<net::EntityUpdate> u{net::EntityUpdate(0, net::DiskQ(1, 2, 3, 4))};
        updates = b.CreateVectorOfStructs(u);
    }
    net::SnapshotBuilder s(b);
    s.add_tick(tick);
    s.add_baseline_tick(baseline_tick);
    if (stream != nullptr) s.add_delta(delta);
    if (with_updates) s.add_updates(updates);
    return copy_of(protocol::finish_packet(b, 7, net::Body::Snapshot, s.Finish().Union()));
}

bool same_frame(const Frame& a, const Frame& b) {
    if (a.tick != b.tick || a.phase != b.phase || a.score != b.score ||
        a.ticks_left != b.ticks_left || a.active_mask != b.active_mask ||
        a.disks.size() != b.disks.size())
        return false;
    for (std::size_t i = 0; i < a.disks.size(); ++i)
        if (std::memcmp(&a.disks[i], &b.disks[i], sizeof(net::DiskQ)) != 0) return false;
    return true;
}

// Plausible play: positions on a 120 x 60 field, speeds under 100 units/s.
Frame random_frame(std::mt19937_64& rng, std::uint64_t tick, std::size_t disks) {
    std::uniform_int_distribution<std::int32_t> pos(0, 120 * 64);
    std::uniform_int_distribution<std::int32_t> vel(-400, 400);
    Frame f;
    f.tick = tick;
    f.phase = static_cast<game::Phase>(rng() % 3);
    f.score = {static_cast<std::uint32_t>(rng() % 10), static_cast<std::uint32_t>(rng() % 10)};
    f.ticks_left = rng() % 10800;
    f.active_mask = rng();
    for (std::size_t i = 0; i < disks; ++i)
        f.disks.emplace_back(pos(rng), pos(rng), vel(rng), vel(rng));
    return f;
}

std::int32_t clamped(std::int64_t v) {
    return static_cast<std::int32_t>(std::clamp<std::int64_t>(v, kMin, kMax));
}

std::int32_t random_value(std::mt19937_64& rng, std::int32_t near) {
    const auto small = static_cast<std::int64_t>(rng() % 7) - 3;
    switch (rng() % 6) {
        case 0:
            return near;  // unchanged
        case 1:
            return clamped(near + small);
        case 2:
            return static_cast<std::int32_t>(static_cast<std::uint32_t>(rng()));  // anything
        case 3:
            return (rng() % 2) != 0 ? kMin : kMax;
        default:
            return clamped(near / 2 + 40 * small);
    }
}

// `baseline` moved on: some disks untouched, some nudged, some anywhere in int32.
Frame successor(std::mt19937_64& rng, const Frame& baseline) {
    Frame f = baseline;
    f.tick = baseline.tick + 1 + rng() % 8;
    if (rng() % 50 == 0)
        f.tick = baseline.tick + (std::uint64_t{1} << 40);  // far beyond prediction
    const std::uint64_t elapsed = f.tick - baseline.tick;
    f.ticks_left = baseline.ticks_left > elapsed ? baseline.ticks_left - elapsed : 0;
    if (rng() % 8 == 0) f.ticks_left = rng();
    if (rng() % 8 == 0) f.phase = static_cast<game::Phase>(rng() % 3);
    if (rng() % 8 == 0) f.score[rng() % 2] = static_cast<std::uint32_t>(rng());
    if (rng() % 8 == 0) f.active_mask ^= std::uint64_t{1} << (rng() % 64);
    for (net::DiskQ& d : f.disks) {
        if (rng() % 4 == 0) continue;
        d = net::DiskQ(random_value(rng, d.x()), random_value(rng, d.y()),
                       random_value(rng, d.vx()), random_value(rng, d.vy()));
    }
    return f;
}

}  // namespace

TEST_CASE("quantisation: positions in 1/64 unit, velocities in 1/4 unit/s") {
    const net::DiskQ d = protocol::quantise({1.5, -2.0}, {10.25, -0.5});
    CHECK(d.x() == 96);
    CHECK(d.y() == -128);
    CHECK(d.vx() == 41);
    CHECK(d.vy() == -2);
    CHECK(protocol::position_of(d).x == 1.5);
    CHECK(protocol::velocity_of(d).x == 10.25);
    const net::DiskQ huge = protocol::quantise({1e300, -1e300}, {std::nan(""), 0.0});
    CHECK(huge.x() == kMax);
    CHECK(huge.y() == kMin);
    CHECK(huge.vx() == 0);
}

TEST_CASE("a full snapshot carries every entity's complete state and round-trips") {
    std::mt19937_64 rng(11);
    Frame f = random_frame(rng, 5, 10);
    f.disks[3] = net::DiskQ(kMin, kMax, kMax, kMin);
    const Bytes bytes = encode(f, nullptr);
    const net::Snapshot& s = snapshot_of(bytes);
    CHECK(s.baseline_tick() == 0);
    CHECK(s.delta() == nullptr);
    REQUIRE(s.updates() != nullptr);
    CHECK(s.updates()->size() == 10);
    std::string error;
    const auto back = decode(bytes, nullptr, error);
    REQUIRE_MESSAGE(back.has_value(), error);
    CHECK(same_frame(*back, f));
}

TEST_CASE("a baseline that does not fit gives a full snapshot") {
    std::mt19937_64 rng(12);
    const Frame base = random_frame(rng, 10, 4);
    Frame other = random_frame(rng, 12, 5);
    CHECK(snapshot_of(encode(other, &base)).baseline_tick() == 0);  // other entity count
    other = random_frame(rng, 10, 4);
    CHECK(snapshot_of(encode(other, &base)).baseline_tick() == 0);  // same tick
    Frame zero = base;
    zero.tick = 0;
    CHECK(snapshot_of(encode(base, &zero)).baseline_tick() == 0);  // tick 0 means full
}

TEST_CASE("delta snapshots round-trip bit for bit: random frames against random baselines") {
    const std::uint64_t seed = 0x5eed'ca70'0002ULL;
    std::printf("test_net: delta round trips, seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 3000; ++round) {
        const Frame base =
            random_frame(rng, 1 + rng() % 1000, static_cast<std::size_t>(rng() % 20));
        const Frame f = successor(rng, base);
        protocol::SnapshotExtras extras;
        extras.last_input_sequence = static_cast<std::uint32_t>(rng());
        extras.pong_id = static_cast<std::uint32_t>(rng());
        const Bytes bytes = encode(f, &base, extras);
        CAPTURE(round);
        REQUIRE(bytes.size() <= protocol::kMaxDatagramBytes);
        const net::Snapshot& s = snapshot_of(bytes);
        REQUIRE(s.baseline_tick() == base.tick);
        CHECK(s.updates() == nullptr);
        CHECK(s.last_input_sequence() == extras.last_input_sequence);
        CHECK(s.pong_id() == extras.pong_id);
        std::string error;
        const auto back = decode(bytes, &base, error);
        REQUIRE_MESSAGE(back.has_value(), error);
        REQUIRE(same_frame(*back, f));
    }
}

TEST_CASE("delta snapshots carry int32 extremes both ways") {
    for (const std::int32_t from : {kMin, kMax, 0}) {
        for (const std::int32_t to : {kMin, kMax, 0, -1}) {
            for (const std::uint64_t gap :
                 {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{255}, std::uint64_t{1} << 62}) {
                Frame base;
                base.tick = 1;
                base.ticks_left = std::numeric_limits<std::uint64_t>::max();
                base.disks = {net::DiskQ(from, from, from, from), net::DiskQ(from, to, to, from),
                              net::DiskQ(to, from, from, to)};
                Frame f = base;
                f.tick = 1 + gap;
                f.score = {std::numeric_limits<std::uint32_t>::max(), 0};
                f.ticks_left = 0;
                f.active_mask = std::numeric_limits<std::uint64_t>::max();
                f.disks = {net::DiskQ(to, to, to, to), net::DiskQ(to, from, from, to),
                           net::DiskQ(from, to, to, from)};
                CAPTURE(from);
                CAPTURE(to);
                CAPTURE(gap);
                std::string error;
                const auto back = decode(encode(f, &base), &base, error);
                REQUIRE_MESSAGE(back.has_value(), error);
                CHECK(same_frame(*back, f));
            }
        }
    }
}

TEST_CASE("a delta of disks moving steadily is a few bits each") {
    Frame base;
    base.tick = 100;
    base.ticks_left = 5000;
    for (int i = 0; i < 10; ++i)
        base.disks.push_back(protocol::quantise({10.0 + i, 20.0}, {30.0, -12.5}));
    Frame f = base;
    f.tick = 102;
    f.ticks_left = 4998;
    for (int i = 0; i < 10; ++i)  // two ticks at the same velocity
        f.disks[static_cast<std::size_t>(i)] =
            protocol::quantise({10.0 + i + 1.0, 20.0 - 12.5 / 30.0}, {30.0, -12.5});
    const Bytes bytes = encode(f, &base);
    const net::Snapshot& s = snapshot_of(bytes);
    REQUIRE(s.delta() != nullptr);
    CHECK(s.delta()->size() <= 2);  // predicted: one bit each, and the header bit
    CHECK(bytes.size() * 2 < encode(f, nullptr).size());
    std::string error;
    const auto back = decode(bytes, &base, error);
    REQUIRE_MESSAGE(back.has_value(), error);
    CHECK(same_frame(*back, f));

    // Any steady motion over a few ticks: at most rounding left to send.
    std::mt19937_64 rng(14);
    std::uniform_real_distribution<double> where(0.0, 100.0), speed(-60.0, 60.0);
    for (std::uint64_t gap = 1; gap <= 8; ++gap) {
        Frame from;
        from.tick = 50;
        Frame to = from;
        to.tick = from.tick + gap;
        for (int i = 0; i < 10; ++i) {
            const game::Vec2 p{where(rng), where(rng)}, v{speed(rng), speed(rng)};
            from.disks.push_back(protocol::quantise(p, v));
            const double t = static_cast<double>(gap) / game::kTickRate;
            to.disks.push_back(protocol::quantise({p.x + v.x * t, p.y + v.y * t}, v));
        }
        const Bytes delta = encode(to, &from);
        CAPTURE(gap);
        CHECK(snapshot_of(delta).delta()->size() <= 10);
        const auto decoded = decode(delta, &from, error);
        REQUIRE_MESSAGE(decoded.has_value(), error);
        CHECK(same_frame(*decoded, to));
    }
}

// PROTOCOL.md's delta stream written out literally, one bit at a time.
class SpecStream {
  public:
    void bit(bool b) {
        if (bits_ % 8 == 0) bytes_.push_back(0);
        if (b) bytes_.back() = static_cast<std::uint8_t>(bytes_.back() | (1U << (bits_ % 8)));
        ++bits_;
    }
    void fixed(std::uint64_t v, int width) {
        for (int i = 0; i < width; ++i)
            bit(((v >> i) & 1U) != 0);
    }
    void code(std::int64_t v) {
        const std::uint64_t z = v >= 0 ? 2 * static_cast<std::uint64_t>(v)
                                       : 2 * static_cast<std::uint64_t>(-(v + 1)) + 1;
        const std::uint64_t w = z + 1;
        int k = 0;
        while ((w >> (k + 1)) != 0)
            ++k;
        for (int i = 0; i < k; ++i)
            bit(false);
        for (int i = k; i >= 0; --i)
            bit(((w >> i) & 1U) != 0);
    }
    const Bytes& bytes() const { return bytes_; }

  private:
    Bytes bytes_;
    std::size_t bits_ = 0;
};

std::int64_t spec_round_div(std::int64_t num, std::int64_t den) {  // halves toward +inf
    std::int64_t q = num / den;
    if (num % den != 0 && (num < 0) != (den < 0)) --q;  // floor
    const std::int64_t r = num - q * den;
    return 2 * r >= den ? q + 1 : q;
}

Bytes spec_delta(const Frame& f, const Frame& base) {
    SpecStream w;
    const std::uint64_t n = f.tick - base.tick;
    const auto m = static_cast<std::int64_t>(std::min<std::uint64_t>(n, 255));
    const std::array<std::uint64_t, 5> header{static_cast<std::uint8_t>(f.phase), f.score[0],
                                              f.score[1], f.ticks_left, f.active_mask};
    const std::array<std::uint64_t, 5> predicted{
        static_cast<std::uint8_t>(base.phase), base.score[0], base.score[1],
        base.ticks_left > n ? base.ticks_left - n : 0, base.active_mask};
    const std::array<int, 5> widths{8, 32, 32, 64, 64};
    w.bit(header != predicted);
    if (header != predicted) {
        for (std::size_t i = 0; i < 5; ++i)
            w.bit(header[i] != predicted[i]);
        for (std::size_t i = 0; i < 5; ++i)
            if (header[i] != predicted[i]) w.fixed(header[i], widths[i]);
    }
    const auto travel = [&](std::int64_t v0, std::int64_t v1) {
        return spec_round_div((2 * m * v0 + (m + 1) * (v1 - v0)) * 16, 120);
    };
    for (std::size_t i = 0; i < f.disks.size(); ++i) {
        const net::DiskQ& d = f.disks[i];
        const net::DiskQ& b = base.disks[i];
        const std::int64_t dvx = std::int64_t{d.vx()} - b.vx();
        const std::int64_t dvy = std::int64_t{d.vy()} - b.vy();
        const std::int64_t dx = d.x() - (b.x() + travel(b.vx(), d.vx()));
        const std::int64_t dy = d.y() - (b.y() + travel(b.vy(), d.vy()));
        const bool differs = dvx != 0 || dvy != 0 || dx != 0 || dy != 0;
        w.bit(differs);
        if (!differs) continue;
        for (const std::int64_t v : {dvx, dvy, dx, dy})
            w.code(v);
    }
    return w.bytes();
}

Bytes delta_of(const Bytes& snapshot) {
    const net::Snapshot& s = snapshot_of(snapshot);
    REQUIRE(s.delta() != nullptr);
    return {s.delta()->begin(), s.delta()->end()};
}

TEST_CASE("delta streams are PROTOCOL.md's, bit for bit, with or without a shared cache") {
    const std::uint64_t seed = 0x5eed'ca70'0004ULL;
    std::printf("test_net: delta streams against the spec, seed %llu\n",
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    protocol::DeltaStreams streams;
    flatbuffers::FlatBufferBuilder b;
    for (int round = 0; round < 2000; ++round) {
        const Frame base =
            random_frame(rng, 1 + rng() % 1000, static_cast<std::size_t>(rng() % 20));
        Frame f = successor(rng, base);
        f.tick += static_cast<std::uint64_t>(round) << 42;  // a new frame (tick) each round
        CAPTURE(round);
        const Bytes expected = spec_delta(f, base);
        CHECK(delta_of(encode(f, &base)) == expected);
        // Twice through the cache: encoded once, the same bytes both times.
        for (int twice = 0; twice < 2; ++twice) {
            const Bytes cached = copy_of(
                protocol::encode_snapshot(b, 7, f, &base, protocol::SnapshotExtras{}, &streams));
            REQUIRE(cached == encode(f, &base));
        }
    }
    // The codes of PROTOCOL.md's examples: 0 is 1, -1 is 010, 1 is 011, -2 is 00100.
    Frame base;
    base.tick = 1;
    base.disks = {net::DiskQ(0, 0, 0, 0)};
    Frame f = base;
    f.tick = 2;
    f.disks = {net::DiskQ(-2, 1, 0, -1)};  // residuals dvx 0, dvy -1, dx -2, dy 1
    // Stream order: 0 (header as predicted), 1 (differs), 1, 010, 00100, 011, two zeros.
    CHECK(delta_of(encode(f, &base)) == Bytes{0x16, 0x31});
    CHECK(spec_delta(f, base) == Bytes{0x16, 0x31});
}

TEST_CASE("a shared delta cache keeps each baseline's stream apart and follows the frame") {
    std::mt19937_64 rng(15);
    protocol::DeltaStreams streams;
    flatbuffers::FlatBufferBuilder b;
    const Frame a = random_frame(rng, 10, 6);
    const Frame c = successor(rng, a);
    Frame f1 = successor(rng, c);
    f1.tick = c.tick + 3;
    Frame f2 = successor(rng, f1);
    const auto via_cache = [&](const Frame& f, const Frame& base) {
        return delta_of(copy_of(
            protocol::encode_snapshot(b, 7, f, &base, protocol::SnapshotExtras{}, &streams)));
    };
    for (int i = 0; i < 2; ++i) {
        CHECK(via_cache(f1, a) == spec_delta(f1, a));
        CHECK(via_cache(f1, c) == spec_delta(f1, c));
    }
    CHECK(via_cache(f2, c) == spec_delta(f2, c));  // the frame moved on
    CHECK(via_cache(f2, a) == spec_delta(f2, a));
}

TEST_CASE("malformed delta streams are refused with an error") {
    Frame base;
    base.tick = 10;
    base.ticks_left = 100;
    base.disks = {net::DiskQ(kMax, 0, 0, 0), net::DiskQ(0, 0, 0, 0)};
    // Bits, least significant first: header flag, then per entity a flag and,
    // when set, Exp-Golomb codes of dvx, dvy, dx, dy ("1" is a zero residual).
    const auto refused = [&](const Bytes& stream, const char* why) {
        std::string error;
        const auto f = decode(raw_delta(12, 10, &stream), &base, error);
        CHECK_MESSAGE(!f.has_value(), why);
        CHECK_MESSAGE(!error.empty(), why);
        return error;
    };
    {
        const Bytes nothing_changed{0x00};
        std::string error;
        const auto f = decode(raw_delta(12, 10, &nothing_changed), &base, error);
        REQUIRE_MESSAGE(f.has_value(), error);
        CHECK(f->ticks_left == 98);  // the clock ran on
        CHECK(std::memcmp(f->disks.data(), base.disks.data(), 2 * sizeof(net::DiskQ)) == 0);
    }
    CHECK(refused({}, "empty") == "delta stream truncated");
    CHECK(refused({0x02}, "a code cut short") == "delta stream truncated");
    CHECK(refused({0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "72 leading zeros") ==
          "delta stream: oversized code");
    CHECK(refused({0x00, 0x00}, "a byte too many") == "delta stream: bytes left over");
    CHECK(refused({0x80}, "padding not zero") == "delta stream: bytes left over");
    CHECK(refused({0xF8}, "a third entity of two") == "delta stream: bytes left over");
    CHECK(refused({0xEE, 0x00}, "x past int32 max") == "delta stream: value out of range");
    CHECK(refused({0xC3, 0x01}, "phase 7") == "unknown phase");
    CHECK(refused({0x3F}, "header fields cut short") == "delta stream truncated");

    std::string error;
    CHECK_FALSE(decode(raw_delta(12, 10, nullptr), &base, error).has_value());  // no stream
    const Bytes ok{0x00};
    CHECK_FALSE(decode(raw_delta(12, 10, &ok, true), &base, error).has_value());  // and updates
    CHECK_FALSE(decode(raw_delta(10, 10, &ok), &base, error).has_value());        // not after it
    CHECK_FALSE(decode(raw_delta(12, 9, &ok), &base, error).has_value());         // other baseline
    CHECK(error == "baseline not held: 9");
    CHECK_FALSE(decode(raw_delta(12, 10, &ok), nullptr, error).has_value());
}

TEST_CASE("full snapshots that do not add up are refused") {
    std::mt19937_64 rng(13);
    const Frame f = random_frame(rng, 5, 3);
    flatbuffers::FlatBufferBuilder b;
    const auto build = [&](std::uint16_t count, std::vector<net::EntityUpdate> updates,
                           bool with_delta) {
        b.Clear();
        const auto u = b.CreateVectorOfStructs(updates);
        const Bytes stream{0x00};
        const auto d = b.CreateVector(stream);
        net::SnapshotBuilder s(b);
        s.add_tick(5);
        s.add_entity_count(count);
        s.add_updates(u);
        if (with_delta) s.add_delta(d);
        return copy_of(protocol::finish_packet(b, 7, net::Body::Snapshot, s.Finish().Union()));
    };
    const std::vector<net::EntityUpdate> all{{0, f.disks[0]}, {1, f.disks[1]}, {2, f.disks[2]}};
    std::string error;
    CHECK(decode(build(3, all, false), nullptr, error).has_value());
    CHECK_FALSE(decode(build(4, all, false), nullptr, error).has_value());
    CHECK(error == "full snapshot lacks an entity");
    CHECK_FALSE(decode(build(2, all, false), nullptr, error).has_value());
    CHECK(error == "entity out of range: 2");
    CHECK_FALSE(decode(build(3, all, true), nullptr, error).has_value());
    CHECK(error == "full snapshot carries a delta stream");
}

TEST_CASE("garbage and damaged delta streams never crash") {
    const std::uint64_t seed = 0x5eed'ca70'0003ULL;
    std::printf("test_net: damaged delta streams, seed %llu\n",
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    int refused = 0;
    for (int round = 0; round < 3000; ++round) {
        const Frame base =
            random_frame(rng, 1 + rng() % 1000, static_cast<std::size_t>(rng() % 12));
        Bytes stream;
        if (round % 2 == 0) {
            stream.resize(static_cast<std::size_t>(rng() % 48));
            for (std::uint8_t& byte : stream)
                byte = static_cast<std::uint8_t>(rng());
        } else {  // a good stream with a few bits flipped, or cut short
            const Frame f = successor(rng, base);
            const Bytes good = encode(f, &base);
            const net::Snapshot& s = snapshot_of(good);
            REQUIRE(s.delta() != nullptr);
            stream.assign(s.delta()->begin(), s.delta()->end());
            if (rng() % 3 == 0) stream.resize(static_cast<std::size_t>(rng() % stream.size()));
            for (std::uint64_t flips = 1 + rng() % 3; flips > 0 && !stream.empty(); --flips)
                stream[static_cast<std::size_t>(rng() % stream.size())] ^=
                    static_cast<std::uint8_t>(1U << (rng() % 8));
        }
        std::string error;
        const auto f = decode(raw_delta(base.tick + 2, base.tick, &stream), &base, error);
        if (f.has_value()) {
            CHECK(f->disks.size() == base.disks.size());
        } else {
            CHECK(!error.empty());
            ++refused;
        }
    }
    CHECK(refused > 0);
}
