// The map transfer as the server sends it: the chunks asked for, paced per
// session and for the whole server, exactly the bytes Accepted's hash covers.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/map_transfer.hpp"
#include "link.hpp"

using namespace carom;
using namespace carom::server;
using namespace carom::server::test;

namespace {

void ask(ScriptedClient& c, std::uint64_t hash, const std::vector<std::uint32_t>& chunks) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateMapRequestDirect(b, hash, &chunks);
    c.send_sealed(protocol::finish_packet(b, c.client_id(), net::Body::MapRequest, body.Union()));
}

// The MapChunks waiting for `c`, by index (anything else is dropped).
std::map<std::uint32_t, std::vector<std::uint8_t>> chunks_for(ScriptedClient& c, Link& /*link*/) {
    std::map<std::uint32_t, std::vector<std::uint8_t>> got;
    while (const std::optional<Datagram> d = c.pop()) {
        const net::Packet* p = d->packet();
        if (p == nullptr || p->body_as_MapChunk() == nullptr) continue;
        const net::MapChunk& m = *p->body_as_MapChunk();
        got[m.index()] = {m.data()->begin(), m.data()->end()};
    }
    return got;
}

}  // namespace

TEST_CASE(
    "accepted names the size of the map, the slot count and team size: the chunks are its binary") {
    Link link;
    InlineDiskWork disk;
    Server s(config_for("arena.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(s, link, endpoint(1, 1000), 1);
    const net::Packet* reply = c.connect("ana");
    REQUIRE(reply != nullptr);
    const net::Accepted& a = *reply->body_as_Accepted();
    const std::vector<std::uint8_t> binary = protocol::map_to_binary(map_named("arena.json"));
    CHECK(a.map_bytes() == binary.size());
    CHECK(a.map_hash() == protocol::map_bytes_hash(binary));
    CHECK(a.team_size() == map_named("arena.json").team_size);
    CHECK(a.slots() == 2 * a.team_size());

    const std::uint32_t n = protocol::chunk_count(binary.size());
    std::vector<std::uint32_t> all(n);
    for (std::uint32_t i = 0; i < n; ++i)
        all[i] = i;
    ask(c, a.map_hash(), all);
    std::vector<std::uint8_t> assembled(binary.size());
    for (int t = 0; t < 10; ++t) {
        s.tick();
        for (const auto& [i, data] : chunks_for(c, link))
            std::copy(
                data.begin(), data.end(),
                assembled.begin() + static_cast<std::ptrdiff_t>(i * protocol::kMapChunkBytes));
    }
    CHECK(assembled == binary);
    CHECK(s.stats().map_transfers_started == 1);
    CHECK(s.stats().map_bytes_out == binary.size());
}

TEST_CASE("map chunks go at the stated pace: per session, and for the whole server") {
    Link link;
    ServerConfig config = config_for("arena.json");
    config.max_clients = 16;
    config.max_sessions_per_ip = 16;
    config.map_chunks_per_session_tick = 3;
    config.map_chunks_per_tick = 5;
    // A map of many chunks: arena's binary is 2 of them; ask for chunk 0
    // and 1 repeatedly from several sessions instead.
    InlineDiskWork disk;
    Server s(config, link, disk, fixed_cookies(), "t");
    std::vector<std::unique_ptr<ScriptedClient>> clients;
    for (std::uint8_t i = 0; i < 4; ++i) {
        clients.push_back(std::make_unique<ScriptedClient>(s, link, endpoint(1, 2000 + i), 10 + i));
        REQUIRE(clients.back()->connect(fmt::format("p{}", i)) != nullptr);
    }
    const std::uint64_t hash = s.room(0).map_hash();
    const std::uint32_t n = protocol::chunk_count(s.room(0).map_bytes().size());
    REQUIRE(n >= 2);
    std::size_t total = 0;
    for (int round = 0; round < 6; ++round) {
        for (auto& c : clients) {
            chunks_for(*c, link);
            ask(*c, hash, {0, 1, 0, 1});  // duplicates in one request count once
        }
        s.tick();
        std::size_t this_tick = 0;
        for (auto& c : clients) {
            const std::size_t got = chunks_for(*c, link).size();
            CHECK(got <= 2);  // 2 distinct chunks asked, per-session pace 3
            this_tick += got;
        }
        CHECK(this_tick <= 5);  // the server-wide cap
        total += this_tick;
    }
    // Round robin: every session got its chunks within the rounds.
    CHECK(total >= 5 * 5);
}

TEST_CASE("a map request for another map, past the end, or from a stranger is dropped") {
    Link link;
    InlineDiskWork disk;
    Server s(config_for("arena.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient c(s, link, endpoint(1, 1000), 1);
    REQUIRE(c.connect("ana") != nullptr);
    const std::uint64_t hash = s.room(0).map_hash();
    ask(c, hash ^ 1, {0});
    CHECK(s.stats().dropped[static_cast<std::size_t>(Drop::wrong_map)] == 1);
    ask(c, hash, {1000000, 4000000000u});
    s.tick();
    CHECK(chunks_for(c, link).empty());
    ScriptedClient stranger(s, link, endpoint(2, 1000), 2);
    stranger.set_client_id(c.client_id());
    stranger.use_keys_of(c);
    ask(stranger, hash, {0});
    CHECK(s.stats().dropped[static_cast<std::size_t>(Drop::unknown_sender)] == 1);
    s.tick();
    CHECK(chunks_for(stranger, link).empty());
}

TEST_CASE("a transfer completes when the client holds a state, and fails when it leaves first") {
    Link link;
    InlineDiskWork disk;
    Server s(config_for("arena.json"), link, disk, fixed_cookies(), "t");
    ScriptedClient a(s, link, endpoint(1, 1000), 1);
    ScriptedClient b(s, link, endpoint(1, 1001), 2);
    REQUIRE(a.connect("ana") != nullptr);
    REQUIRE(b.connect("bob") != nullptr);
    const std::uint64_t hash = s.room(0).map_hash();
    ask(a, hash, {0});
    ask(b, hash, {0});
    s.tick();
    a.keep_copy(map_named("arena.json"));
    a.take();
    REQUIRE(a.copy().holds());
    a.ack(a.copy().tick());
    b.disconnect();
    CHECK(s.stats().map_transfers_started == 2);
    CHECK(s.stats().map_transfers_completed == 1);
    CHECK(s.stats().map_transfers_failed == 1);
}
