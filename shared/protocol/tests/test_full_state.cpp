// FullState (full_state.hpp): a match restored from its parts, in any order,
// is the server's bit for bit; parts that do not add up are refused.
#include "carom/protocol/full_state.hpp"

#include <algorithm>
#include <random>

#include <doctest/doctest.h>

#include "carom/protocol/packet.hpp"

using namespace carom;

namespace {

using Bytes = std::vector<std::uint8_t>;

// An open field with `team_size` spawns a side and `pucks` puck spawns.
game::Map field(std::uint32_t team_size, std::uint32_t pucks) {
    game::Map m;
    m.name = "field";
    m.size = {200.0, 100.0};
    m.goals = {{game::Team::left, {0.0, 40.0}, {0.0, 60.0}},
               {game::Team::right, {200.0, 40.0}, {200.0, 60.0}}};
    for (std::uint32_t i = 0; i < team_size; ++i) {
        m.spawns.push_back({game::Team::left, {30.0, 5.0 + 5.5 * i}});
        m.spawns.push_back({game::Team::right, {170.0, 5.0 + 5.5 * i}});
    }
    for (std::uint32_t i = 0; i < pucks; ++i)
        m.puck_spawns.push_back({100.0, 5.0 + 5.5 * i});
    m.team_size = team_size;
    return m;
}

// A match played for a while: every slot joined, inputs from a seeded generator.
game::Match played(const game::Map& map, std::uint64_t seed, int ticks) {
    game::Match m(map, seed);
    for (game::Slot s = 0; s < m.slot_count(); ++s)
        m.join(s, "player" + std::to_string(s));
    std::mt19937_64 rng(seed);
    std::vector<game::Input> inputs(m.slot_count());
    for (int t = 0; t < ticks; ++t) {
        for (auto& in : inputs)
            if (rng() % 10 == 0) in = game::Input::from_bits(static_cast<std::uint8_t>(rng() % 64));
        m.step(inputs);
    }
    return m;
}

protocol::RoomState state_of(const game::Match& m) {
    protocol::RoomState s;
    s.tick = 123'456;
    s.state_hash = m.state_hash();
    s.last_input_sequence = 77;
    s.match_seed = m.seed();
    s.match_start_tick = 123'456 - m.tick();
    s.server_tick_ms = 0.25F;
    s.match = m.save();
    s.bots.assign(m.slot_count(), false);
    for (std::size_t i = 0; i < s.bots.size(); i += 3)
        s.bots[i] = true;
    return s;
}

std::vector<Bytes> encode(const protocol::RoomState& s) {
    flatbuffers::FlatBufferBuilder b;
    std::vector<Bytes> parts;
    protocol::encode_full_state(b, 9, s, [&](std::span<const std::uint8_t> bytes) {
        parts.emplace_back(bytes.begin(), bytes.end());
    });
    return parts;
}

const net::FullState& full_of(const Bytes& bytes) {
    const auto p = protocol::verify_packet(bytes);
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    REQUIRE((*p)->body_as_FullState() != nullptr);
    return *(*p)->body_as_FullState();
}

}  // namespace

TEST_CASE("a 4 v 4's full state is one datagram and restores the match bit for bit") {
    const game::Map map = field(4, 2);
    const game::Match server = played(map, 5, 400);
    const protocol::RoomState sent = state_of(server);
    const std::vector<Bytes> parts = encode(sent);
    REQUIRE(parts.size() == 1);
    CHECK((*protocol::verify_packet(parts[0]))->client_id() == 9);
    MESSAGE("a 4 v 4 with two pucks: " << parts[0].size() << " bytes");
    CHECK(parts[0].size() <= protocol::kMaxSessionDatagramBytes);

    protocol::FullStateAssembly assembly;
    const auto got = assembly.add(full_of(parts[0]), server.slot_count(), server.puck_count());
    REQUIRE_MESSAGE(got.ok(), got.error().message);
    REQUIRE(got->has_value());
    const protocol::RoomState& s = **got;
    CHECK(s.tick == sent.tick);
    CHECK(s.state_hash == sent.state_hash);
    CHECK(s.last_input_sequence == 77);
    CHECK(s.match_start_tick == sent.match_start_tick);
    CHECK(s.bots == sent.bots);
    game::Match client(map, s.match_seed);
    client.restore(s.match);
    CHECK(client.state_hash() == server.state_hash());
    // And they go on the same.
    game::Match a = played(map, 5, 400);
    std::vector<game::Input> inputs(a.slot_count(), game::Input::move(3, true));
    for (int t = 0; t < 100; ++t) {
        a.step(inputs);
        client.step(inputs);
    }
    CHECK(client.state_hash() == a.state_hash());
}

TEST_CASE("the largest match splits into parts that arrive in any order") {
    const game::Map map = field(16, 16);  // 32 slots, 16 pucks: the limits' largest
    const game::Match server = played(map, 9, 200);
    const std::vector<Bytes> parts = encode(state_of(server));
    MESSAGE("32 slots and 16 pucks: " << parts.size() << " parts");
    REQUIRE(parts.size() > 1);
    for (const Bytes& p : parts)
        CHECK(p.size() <= protocol::kMaxSessionDatagramBytes);

    std::vector<std::size_t> order(parts.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::mt19937 rng(3);
    for (int round = 0; round < 5; ++round) {
        std::shuffle(order.begin(), order.end(), rng);
        protocol::FullStateAssembly assembly;
        std::optional<protocol::RoomState> done;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const auto r = assembly.add(full_of(parts[order[k]]), 32, 16);
            REQUIRE_MESSAGE(r.ok(), r.error().message);
            // A part given twice changes nothing.
            if (k == 0) REQUIRE(assembly.add(full_of(parts[order[k]]), 32, 16).ok());
            CHECK(r->has_value() == (k + 1 == order.size()));
            if (r->has_value()) done = **r;
        }
        REQUIRE(done);
        game::Match client(map, done->match_seed);
        client.restore(done->match);
        CHECK(client.state_hash() == server.state_hash());
    }
}

TEST_CASE("full states that do not fit the map or each other are refused") {
    const game::Map map = field(2, 1);
    const game::Match server = played(map, 2, 50);
    const std::vector<Bytes> one = encode(state_of(server));
    REQUIRE(one.size() == 1);
    protocol::FullStateAssembly assembly;
    CHECK_FALSE(assembly.add(full_of(one[0]), 3, 1).ok());  // a map of fewer slots
    CHECK_FALSE(assembly.add(full_of(one[0]), 4, 0).ok());  // and of fewer pucks
    assembly.clear();
    const auto lacking = assembly.add(full_of(one[0]), 5, 1);  // a map of more slots
    CHECK_FALSE(lacking.ok());

    // Hand-made parts: out of range, a kicker that is nobody, an unknown phase,
    // two parts of one tick that disagree.
    const auto part = [](std::uint8_t index, std::uint8_t count, std::uint64_t hash,
                         std::uint16_t slot, std::int32_t kicker, std::uint8_t phase) {
        flatbuffers::FlatBufferBuilder b;
        const net::DiskState d(1, 2, 3, 4);
        std::vector<flatbuffers::Offset<net::SlotState>> slots{
            net::CreateSlotState(b, slot, true, false, b.CreateString("x"), 0, 0, 0, &d)};
        std::vector<flatbuffers::Offset<net::PuckState>> pucks{
            net::CreatePuckState(b, 0, &d, kicker)};
        const auto body = net::CreateFullState(b, 10, index, count, hash, 0, 1, 0, 0, 10,
                                               static_cast<schema::Phase>(phase), 0, 0, 0, 0,
                                               b.CreateVector(slots), b.CreateVector(pucks));
        const auto bytes = protocol::finish_packet(b, 1, net::Body::FullState, body.Union());
        return Bytes(bytes.begin(), bytes.end());
    };
    protocol::FullStateAssembly a;
    CHECK_FALSE(a.add(full_of(part(2, 2, 0, 0, -1, 0)), 2, 1).ok());
    CHECK_FALSE(a.add(full_of(part(0, 1, 0, 2, -1, 0)), 2, 1).ok());
    CHECK_FALSE(a.add(full_of(part(0, 1, 0, 0, 2, 0)), 2, 1).ok());
    CHECK_FALSE(a.add(full_of(part(0, 1, 0, 0, -2, 0)), 2, 1).ok());
    CHECK_FALSE(a.add(full_of(part(0, 1, 0, 0, -1, 7)), 2, 1).ok());
    protocol::FullStateAssembly b;
    const auto first = b.add(full_of(part(0, 2, 5, 0, -1, 0)), 2, 1);
    REQUIRE(first.ok());
    CHECK_FALSE(first->has_value());
    CHECK_FALSE(b.add(full_of(part(1, 2, 6, 1, -1, 0)), 2, 1).ok());
}

TEST_CASE("a map's movable discs travel in the full state, in every part") {
    game::Map map = field(16, 16);
    for (std::uint32_t i = 0; i < game::limits::kDiscsMax; ++i) {
        game::Disc d;
        d.position = {40.0 + 6.0 * (i % 8), 10.0 + 10.0 * (i / 8)};
        d.velocity = {1.0 + i, -0.5};
        d.radius = 1.5;
        map.discs.push_back(d);
    }
    const game::Match server = played(map, 5, 40);
    const protocol::RoomState sent = state_of(server);
    const std::vector<Bytes> parts = encode(sent);
    CHECK(parts.size() > 1);
    protocol::FullStateAssembly assembly;
    std::optional<protocol::RoomState> whole;
    for (const Bytes& part : parts) {
        const auto got = assembly.add(full_of(part), 32, 16, game::limits::kDiscsMax);
        REQUIRE_MESSAGE(got.ok(), got.error().message);
        if (got->has_value()) whole = **got;
    }
    REQUIRE(whole.has_value());
    game::Match client(map, server.seed());
    client.restore(whole->match);
    CHECK(client.state_hash() == server.state_hash());

    // A client that expects no discs refuses the parts that carry them.
    protocol::FullStateAssembly blind;
    bool refused = false;
    for (const Bytes& part : parts)
        refused |= !blind.add(full_of(part), 32, 16).ok();
    CHECK(refused);
}

TEST_CASE("the team kicking off on a map with collision groups travels in the full state") {
    const game::Map map = field(2, 1);
    const game::Match server = played(map, 4, 30);
    for (const auto team : {game::Team::left, game::Team::right}) {
        protocol::RoomState sent = state_of(server);
        sent.match.kickoff_team = team;
        const std::vector<Bytes> parts = encode(sent);
        REQUIRE(parts.size() == 1);
        protocol::FullStateAssembly assembly;
        const auto got = assembly.add(full_of(parts[0]), 4, 1);
        REQUIRE_MESSAGE(got.ok(), got.error().message);
        REQUIRE(got->has_value());
        CHECK((*got)->match.kickoff_team == team);
    }
    // None is the default, and a team that is neither is refused.
    const std::vector<Bytes> none = encode(state_of(server));
    protocol::FullStateAssembly assembly;
    const auto got = assembly.add(full_of(none[0]), 4, 1);
    REQUIRE(got.ok());
    REQUIRE(got->has_value());
    CHECK_FALSE((*got)->match.kickoff_team.has_value());

    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateFullState(b, 10, 0, 1, 0, 0, 1, 0, 0, 10, schema::Phase::playing,
                                           0, 0, 0, 0, 0, 0, 0.0F, /*kickoff_team=*/3);
    const auto bytes = protocol::finish_packet(b, 1, net::Body::FullState, body.Union());
    protocol::FullStateAssembly refusing;
    const auto refused = refusing.add(full_of(Bytes(bytes.begin(), bytes.end())), 0, 0);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("kick-off team") != std::string::npos);
}
