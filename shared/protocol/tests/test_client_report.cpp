// ClientUpdate (client_report.hpp): round trips, the stream against
// PROTOCOL.md bit for bit, its size, and streams that must be refused.
#include "carom/protocol/client_report.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>

#include <doctest/doctest.h>

#include "carom/protocol/packet.hpp"
#include "spec_stream.hpp"

using namespace carom;
using protocol::ClientReport;
using protocol::InputDelta;
using protocol::test::SpecStream;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes encode(const ClientReport& r) {
    flatbuffers::FlatBufferBuilder b;
    const auto bytes = protocol::encode_client_report(b, r);
    return {bytes.begin(), bytes.end()};
}

const net::ClientUpdate& update_of(const Bytes& bytes) {
    const auto v = protocol::verify_client_update(bytes);
    REQUIRE_MESSAGE(v.ok(), v.error().message);
    return **v;
}

Bytes stream_of(const Bytes& bytes) {
    const net::ClientUpdate& u = update_of(bytes);
    Bytes s(u.head()->stream()->begin(), u.head()->stream()->end());
    if (u.more() != nullptr) s.insert(s.end(), u.more()->begin(), u.more()->end());
    return s;
}

Bytes raw_update(const Bytes& stream, std::uint16_t sequence = 1, std::uint16_t ack = 0) {
    flatbuffers::FlatBufferBuilder b;
    std::array<std::uint8_t, 4> head_bytes{};
    std::copy_n(stream.begin(), std::min<std::size_t>(stream.size(), 4), head_bytes.begin());
    flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> more;
    if (stream.size() > 4) more = b.CreateVector(stream.data() + 4, stream.size() - 4);
    const net::ClientHead head(sequence, ack, flatbuffers::span<const std::uint8_t, 4>(head_bytes));
    net::ClientUpdateBuilder u(b);
    u.add_head(&head);
    if (!more.IsNull()) u.add_more(more);
    b.Finish(u.Finish(), protocol::kClientUpdateIdentifier);
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

Bytes spec_stream(const ClientReport& r) {
    SpecStream w;
    w.bit(r.ack.has_value());
    w.code(r.inputs.size());
    // Newest first, in runs: the run's input (the first as 6 bits, later ones
    // as a change from the run before), then, unless one input is left, a bit
    // saying whether another run follows and, if so, this run's length - 1.
    std::size_t i = r.inputs.size();
    while (i > 0) {
        const game::Input input = r.inputs[i - 1];
        if (i == r.inputs.size()) {
            w.fixed(input.bits(), 6);
        } else {
            w.delta(InputDelta::between(r.inputs[i], input));
        }
        std::size_t length = 1;
        while (length < i && r.inputs[i - 1 - length] == input)
            ++length;
        if (i == 1) break;
        w.bit(length < i);
        if (length == i) break;
        w.code(length - 1);
        i -= length;
    }
    Bytes bytes = w.bytes();
    if (bytes.size() < 4) bytes.resize(4, 0);
    return bytes;
}

ClientReport random_report(std::mt19937_64& rng) {
    ClientReport r;
    if (rng() % 8 != 0) r.ack = 70'000 + rng() % 60'000;
    const std::size_t m = rng() % 8 == 0 ? 0 : 1 + rng() % protocol::kMaxInputRedundancy;
    game::Input input = game::Input::from_bits(static_cast<std::uint8_t>(rng() % 64));
    for (std::size_t i = 0; i < m; ++i) {
        if (rng() % 4 == 0) input = game::Input::from_bits(static_cast<std::uint8_t>(rng() % 64));
        r.inputs.push_back(input);
    }
    if (m > 0) r.sequence = static_cast<std::uint32_t>(rng());
    return r;
}

}  // namespace

TEST_CASE("client updates round-trip and their stream is PROTOCOL.md's, bit for bit") {
    const std::uint64_t seed = 0x5eed'0005'0003ULL;
    std::printf("test_client_report: random reports against the spec, seed %llu\n",
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 3000; ++round) {
        const ClientReport r = random_report(rng);
        CAPTURE(round);
        const Bytes bytes = encode(r);
        CHECK(protocol::classify(bytes) == protocol::DatagramKind::client_update);
        CHECK(stream_of(bytes) == spec_stream(r));
        // The server reads the sequence back near the last it applied, the ack
        // near its tick: anything within 2^15 comes back exactly.
        const std::uint64_t tick = r.ack.value_or(100'000) + rng() % 20'000;
        const std::uint32_t last = r.sequence - static_cast<std::uint32_t>(rng() % 20'000);
        const auto back = protocol::decode_client_report(update_of(bytes), tick, last);
        REQUIRE_MESSAGE(back.ok(), back.error().message);
        CHECK(*back == r);
    }
    // PROTOCOL.md's example: an ack, eight inputs, the older five moving east
    // (0x10), the newer three with the kick held too (0x30).
    ClientReport r;
    r.ack = 12;
    r.sequence = 9;
    for (int i = 0; i < 8; ++i)
        r.inputs.push_back(game::Input::move(0, i >= 5));
    // 1 (ack), 0001001 (8), 000011 (0x30 low bit first), 1 (a run follows),
    // 011 (length 3), 00 (the kick flipped), 0 (no run follows): 21 bits.
    CHECK(stream_of(encode(r)) == Bytes{0x91, 0x70, 0x03, 0x00});
    CHECK(encode(r).size() == 28);
}

TEST_CASE("malformed client streams are refused with a reason") {
    const auto refused = [](const Bytes& bytes, const char* why) {
        CAPTURE(why);
        const auto r = protocol::decode_client_report(update_of(bytes), 1000, 10);
        CHECK_FALSE(r.ok());
    };
    {
        SpecStream w;
        w.bit(false), w.code(protocol::kMaxInputRedundancy + 1);
        refused(raw_update(w.bytes()), "too many inputs");
    }
    {
        SpecStream w;  // two inputs, a first run of length 2 announced as not the last
        w.bit(false), w.code(2), w.fixed(0x10, 6), w.bit(true), w.code(1);
        refused(raw_update(w.bytes()), "a run as long as the inputs");
    }
    {
        SpecStream w;
        // A length code whose zeros run to the end of the stream.
        w.bit(false), w.code(3), w.fixed(0x10, 6), w.bit(true);
        refused(raw_update(w.bytes()), "truncated");
    }
    {
        SpecStream w;
        w.bit(false), w.code(0), w.bit(true);
        refused(raw_update(w.bytes()), "a bit left over");
    }
    {
        SpecStream w;
        w.bit(false), w.code(0);
        Bytes b = w.bytes();
        b.resize(6, 0);
        refused(raw_update(b), "bytes left over");
    }
    {
        SpecStream w;  // an ack 3 ticks after the server's tick
        w.bit(true), w.code(0);
        refused(raw_update(w.bytes(), 0, static_cast<std::uint16_t>(1003)), "ack from the future");
    }
}

TEST_CASE("garbage client streams never crash") {
    const std::uint64_t seed = 0x5eed'0005'0004ULL;
    std::printf("test_client_report: garbage streams, seed %llu\n",
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    int decoded = 0;
    for (int round = 0; round < 20000; ++round) {
        Bytes stream(static_cast<std::size_t>(rng() % 24));
        for (auto& byte : stream)
            byte = static_cast<std::uint8_t>(rng() % 4 == 0 ? 0 : rng());
        const auto r = protocol::decode_client_report(
            update_of(raw_update(stream, static_cast<std::uint16_t>(rng()),
                                 static_cast<std::uint16_t>(rng()))),
            rng(), static_cast<std::uint32_t>(rng()));
        decoded += r.ok() ? 1 : 0;
    }
    MESSAGE(decoded << " of 20000 random streams decoded");
    CHECK(decoded > 0);
}

TEST_CASE("PROTOCOL.md's steady-state ClientUpdate, byte for byte") {
    // Eight inputs up to sequence 5000, east, the newest three with the kick;
    // tick 69994 held.
    ClientReport r;
    r.ack = 69'994;
    r.sequence = 5'000;
    for (int i = 0; i < 8; ++i)
        r.inputs.push_back(game::Input::move(4, i >= 5));
    const Bytes expected{
        0x10, 0x00, 0x00, 0x00,              // root: the table at 16
        'C',  'N',  'C',  'U',               // file identifier
        0x00, 0x00,                          // padding
        0x06, 0x00, 0x0C, 0x00, 0x04, 0x00,  // vtable: 6 bytes, the table 12, head at + 4
        0x06, 0x00, 0x00, 0x00,              // the table: its vtable 6 bytes before it
        0x88, 0x13,                          // head.sequence: 5000
        0x6A, 0x11,                          // head.ack: 69994 mod 2^16
        0x91, 0x74, 0x03, 0x00,              // head.stream (21 bits)
    };
    CHECK(encode(r) == expected);
}
