// The client's side of the map transfer against a server written by hand:
// what it asks for, and a hostile server's map refused with the reason.
#include <doctest/doctest.h>

#include "carom/client/testing/fake_server.hpp"
#include "carom/protocol/map_transfer.hpp"

using namespace carom;
using namespace carom::client;
using namespace carom::client::test;

namespace {

Bytes chunk(std::uint64_t hash, std::uint32_t index, std::span<const std::uint8_t> data) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateMapChunk(b, hash, index, b.CreateVector(data.data(), data.size()));
    return copy_of(protocol::finish_packet(b, 42, net::Body::MapChunk, body.Union()));
}

// Connected on a map of `bytes` (named by their hash), fetching it.
void fetching(Harness& h, const Bytes& bytes) {
    AcceptedFields a;
    a.map_hash = protocol::map_bytes_hash(bytes);
    a.map_bytes = static_cast<std::uint32_t>(bytes.size());
    h.connect(a);
    h.connection.fetch_map(0);
}

void send_all(Harness& h, const Bytes& bytes, std::uint64_t hash) {
    for (std::uint32_t i = 0; i < protocol::chunk_count(bytes.size()); ++i) {
        const std::size_t at = std::size_t{i} * protocol::kMapChunkBytes;
        h.receive(chunk(hash, i,
                        std::span(bytes).subspan(
                            at, std::min(protocol::kMapChunkBytes, bytes.size() - at))),
                  10);
    }
}

}  // namespace

TEST_CASE("fetch_map asks for the chunks, sealed, then holds the map") {
    Harness h;
    const Bytes bytes = protocol::map_to_binary(shipped_map("arena"));
    fetching(h, bytes);
    CHECK(protocol::is_sealed(h.sent.back()));
    const net::Packet& request = h.last_sent();
    REQUIRE(request.body_as_MapRequest() != nullptr);
    CHECK(request.body_as_MapRequest()->map_hash() == protocol::map_bytes_hash(bytes));
    CHECK(request.body_as_MapRequest()->chunks()->size() == protocol::chunk_count(bytes.size()));
    // A chunk in the clear, or sealed with other keys, is forged: dropped.
    const Bytes first = chunk(protocol::map_bytes_hash(bytes), 0, std::span(bytes).first(1024));
    h.receive_raw(first, 5);
    CHECK(h.connection.stats().unsealed == 1);
    h.receive_raw(forged_seal(first), 5);
    CHECK(h.connection.stats()
              .refused_sealed[static_cast<std::size_t>(protocol::SealRefusal::bad_tag)] == 1);
    CHECK(h.connection.map_download()->chunks_held() == 0);
    send_all(h, bytes, protocol::map_bytes_hash(bytes));
    REQUIRE(h.connection.replica() != nullptr);
    CHECK(h.connection.state() == State::connected);
    const auto ready = h.connection.take_map_ready();
    REQUIRE(ready);
    CHECK(ready->source == "the server");
    CHECK(!h.connection.take_map_ready());  // once
    // It tells the server it holds the map: an empty MapRequest.
    const net::Packet& done = h.last_sent();
    REQUIRE(done.body_as_MapRequest() != nullptr);
    CHECK((done.body_as_MapRequest()->chunks() == nullptr ||
           done.body_as_MapRequest()->chunks()->size() == 0));
}

TEST_CASE("a hostile server's map is refused with the reason: limits, checks, hash, size") {
    SUBCASE("a map outside the limits") {
        game::Map bad = shipped_map("arena");
        bad.tuning.kick_speed = 1e50;
        const Bytes bytes = protocol::map_to_binary(bad);
        Harness h;
        fetching(h, bytes);
        send_all(h, bytes, protocol::map_bytes_hash(bytes));
        CHECK(h.connection.state() == State::closed);
        CHECK(h.connection.close_reason() == CloseReason::bad_map);
        CHECK(h.connection.close_detail().find("kick_speed") != std::string::npos);
        CHECK(h.connection.replica() == nullptr);
    }
    SUBCASE("bytes that are not a map") {
        const Bytes bytes(3000, 0xAB);
        Harness h;
        fetching(h, bytes);
        send_all(h, bytes, protocol::map_bytes_hash(bytes));
        CHECK(h.connection.close_reason() == CloseReason::bad_map);
        CHECK(h.connection.close_detail().find("refused") != std::string::npos);
    }
    SUBCASE("bytes of another hash than Accepted named") {
        const Bytes bytes = protocol::map_to_binary(shipped_map("arena"));
        Harness h;
        AcceptedFields a;
        a.map_hash = protocol::map_bytes_hash(bytes) ^ 1;
        a.map_bytes = static_cast<std::uint32_t>(bytes.size());
        h.connect(a);
        h.connection.fetch_map(0);
        send_all(h, bytes, a.map_hash);
        CHECK(h.connection.close_reason() == CloseReason::bad_map);
        CHECK(h.connection.close_detail().find("do not hash") != std::string::npos);
    }
    SUBCASE("a map past the size limit, before anything is allocated") {
        Harness h;
        AcceptedFields a;
        a.map_bytes = 0xFFFFFFFF;
        h.connect(a);
        h.connection.fetch_map(0);
        CHECK(h.connection.close_reason() == CloseReason::bad_map);
        CHECK(h.connection.close_detail().find("more than a map may be") != std::string::npos);
    }
}

namespace {

// A host's store, written by hand: what it holds, and what it was left.
struct ListStore final : MapStore {
    std::optional<StoredMap> held;
    std::vector<std::pair<std::uint64_t, Bytes>> kept;
    std::vector<std::uint64_t> asked;
    bool refuse_keep = false;

    std::optional<StoredMap> find(std::string_view, std::uint64_t hash) override {
        asked.push_back(hash);
        return held;
    }
    Status keep(std::uint64_t hash, const game::CheckedMap&, Bytes bytes) override {
        if (refuse_keep) return fail("read-only");
        kept.emplace_back(hash, std::move(bytes));
        return {};
    }
};

}  // namespace

TEST_CASE("with a map store, Accepted's map is taken from it, or fetched and left there") {
    const game::Map arena = shipped_map("arena");
    const Bytes bytes = protocol::map_to_binary(arena);
    const std::uint64_t hash = protocol::map_bytes_hash(bytes);
    AcceptedFields a;
    a.map_hash = hash;
    a.map_bytes = static_cast<std::uint32_t>(bytes.size());

    SUBCASE("held: set at once, nothing asked of the server") {
        ListStore store;
        store.held = StoredMap{game::CheckedMap(arena), "maps/arena.json"};
        Harness h({}, &store);
        h.connect(a);
        CHECK(store.asked == std::vector<std::uint64_t>{hash});
        REQUIRE(h.connection.map() != nullptr);
        const auto ready = h.connection.take_map_ready();
        REQUIRE(ready);
        CHECK(ready->source == "maps/arena.json");
        CHECK(h.connection.map_download() == nullptr);
        // The store's checked map itself: the replica shares it, no copy.
        CHECK(&h.connection.map()->get() == &store.held->map.get());
    }
    SUBCASE("not held: fetched, checked once, and its bytes left in the store") {
        ListStore store;
        Harness h({}, &store);
        h.connect(a);
        REQUIRE(h.connection.map_download() != nullptr);
        CHECK(h.last_sent().body_as_MapRequest() != nullptr);
        CHECK(!h.connection.take_map_ready());
        send_all(h, bytes, hash);
        const auto ready = h.connection.take_map_ready();
        REQUIRE(ready);
        CHECK(ready->source == "the server");
        CHECK(ready->keep_problem.empty());
        REQUIRE(store.kept.size() == 1);
        CHECK(store.kept[0].first == hash);
        CHECK(store.kept[0].second == bytes);
        CHECK(protocol::map_hash(h.connection.map()->get()) == hash);
    }
    SUBCASE("a store that cannot keep it: the map is played, the reason told") {
        ListStore store;
        store.refuse_keep = true;
        Harness h({}, &store);
        h.connect(a);
        send_all(h, bytes, hash);
        const auto ready = h.connection.take_map_ready();
        REQUIRE(ready);
        CHECK(ready->keep_problem == "read-only");
        CHECK(h.connection.map() != nullptr);
    }
}

TEST_CASE("set_map refuses an unplayable map with the reason, instead of throwing") {
    Harness h;
    h.connect();
    game::Map broken = shipped_map("arena");
    broken.team_size = 0;
    const Status set = h.connection.set_map(broken);
    REQUIRE(!set);
    CHECK(!set.error().message.empty());
    CHECK(h.connection.map() == nullptr);
    CHECK(!h.connection.take_map_ready());
}

TEST_CASE("a transfer cut by a reconnect resumes with the chunks it lacks") {
    game::Map big = shipped_map("arena");
    for (std::size_t i = 0; protocol::map_to_binary(big).size() < 8 * protocol::kMapChunkBytes; ++i)
        big.boxes.push_back({{-6000.0 + 10.0 * static_cast<double>(i), -6000.0}, {1.0, 1.0}});
    const Bytes bytes = protocol::map_to_binary(big);
    const std::uint64_t hash = protocol::map_bytes_hash(bytes);
    const std::uint32_t n = protocol::chunk_count(bytes.size());
    Harness h;
    fetching(h, bytes);
    for (std::uint32_t i = 0; i < n; i += 2) {  // every other chunk comes
        const std::size_t at = std::size_t{i} * protocol::kMapChunkBytes;
        h.receive(chunk(hash, i,
                        std::span(bytes).subspan(
                            at, std::min(protocol::kMapChunkBytes, bytes.size() - at))),
                  10);
    }
    REQUIRE(h.connection.map_download()->chunks_held() == (n + 1) / 2);
    // The session is lost; a new one on a room of the same map.
    h.connection.connect(20);
    AcceptedFields a;
    a.map_hash = hash;
    a.map_bytes = static_cast<std::uint32_t>(bytes.size());
    h.receive(challenge(7), 20);
    h.receive(accepted(a), 20);
    h.connection.fetch_map(20);
    const net::Packet& request = h.last_sent();
    REQUIRE(request.body_as_MapRequest() != nullptr);
    std::vector<std::uint32_t> asked(request.body_as_MapRequest()->chunks()->begin(),
                                     request.body_as_MapRequest()->chunks()->end());
    std::vector<std::uint32_t> missing;
    for (std::uint32_t i = 1; i < n; i += 2)
        missing.push_back(i);
    CHECK(asked == missing);
    send_all(h, bytes, hash);
    CHECK(h.connection.replica() != nullptr);
}
