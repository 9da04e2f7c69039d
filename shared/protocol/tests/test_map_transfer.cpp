// MapDownload: what a client asks for and when, and the map it ends with.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>

#include "carom/protocol/map_transfer.hpp"

using namespace carom::protocol;

namespace {

std::vector<std::uint8_t> some_bytes(std::size_t n) {
    std::vector<std::uint8_t> v(n);
    std::mt19937 rng(7);
    for (auto& b : v)
        b = static_cast<std::uint8_t>(rng());
    return v;
}

std::span<const std::uint8_t> chunk_of(const std::vector<std::uint8_t>& map, std::uint32_t i) {
    const std::size_t at = std::size_t{i} * kMapChunkBytes;
    return std::span(map).subspan(at, std::min(kMapChunkBytes, map.size() - at));
}

}  // namespace

TEST_CASE("a map download refuses an empty map or one past the limit before allocating") {
    CHECK(!MapDownload::start(1, 0));
    const auto big = MapDownload::start(1, static_cast<std::uint32_t>(kMaxMapBytes + 1));
    REQUIRE(!big);
    CHECK(big.error().message.find("more than a map may be") != std::string::npos);
    CHECK(MapDownload::start(1, static_cast<std::uint32_t>(kMaxMapBytes)));
}

TEST_CASE("a map download asks for a window of chunks, in order, and again after the retry time") {
    MapDownload::Config config;
    config.window = 100;
    config.first_retry_ms = 300;
    const auto map = some_bytes(300 * kMapChunkBytes + 5);
    auto d = MapDownload::start(map_bytes_hash(map), static_cast<std::uint32_t>(map.size()), config)
                 .value();
    CHECK(d.chunks() == 301);
    const auto first = d.due(1000);
    REQUIRE(first.size() == kMaxChunksPerRequest);
    CHECK(first.front() == 0);
    CHECK(first.back() == kMaxChunksPerRequest - 1);
    const auto second = d.due(1001);
    CHECK(second.size() == 100 - kMaxChunksPerRequest);  // the window is full after it
    CHECK(second.front() == kMaxChunksPerRequest);
    CHECK(d.due(1002).empty());
    // Nothing came: after the retry time the same chunks again, from the first.
    const auto again = d.due(1300);
    REQUIRE(!again.empty());
    CHECK(again.front() == 0);
}

TEST_CASE("a map download takes chunks lost, duplicated and reordered, and checks the hash") {
    const auto map = some_bytes(40 * kMapChunkBytes + 17);
    auto d =
        MapDownload::start(map_bytes_hash(map), static_cast<std::uint32_t>(map.size())).value();
    std::mt19937 rng(3);
    std::uint64_t now = 1;
    int rounds = 0;
    while (!d.complete() && rounds < 200) {
        std::vector<std::uint32_t> asked = d.due(now);
        std::shuffle(asked.begin(), asked.end(), rng);
        for (const std::uint32_t i : asked) {
            if (rng() % 4 == 0) continue;  // lost
            CHECK(d.add(i, chunk_of(map, i), now + 50) == MapDownload::Took::fresh);
            if (rng() % 3 == 0)
                CHECK(d.add(i, chunk_of(map, i), now + 60) == MapDownload::Took::duplicate);
        }
        now += 100;
        ++rounds;
    }
    REQUIRE(d.complete());
    CHECK(d.bytes_held() == map.size());
    const auto bytes = d.bytes();
    REQUIRE(bytes);
    CHECK(*bytes == map);
    // The retry time followed the chunks' 50 ms: twice it and a margin.
    CHECK(d.retry_ms() < 300);
}

TEST_CASE("a map download refuses chunks of the wrong size or index, and bytes of another hash") {
    const auto map = some_bytes(2 * kMapChunkBytes + 10);
    auto d =
        MapDownload::start(map_bytes_hash(map) ^ 1, static_cast<std::uint32_t>(map.size())).value();
    CHECK(d.add(3, chunk_of(map, 0), 1) == MapDownload::Took::refused);
    CHECK(d.add(0, chunk_of(map, 2), 1) == MapDownload::Took::refused);  // 10 bytes, not 1024
    CHECK(d.add(2, chunk_of(map, 0), 1) == MapDownload::Took::refused);  // 1024, not 10
    CHECK(!d.bytes());
    for (std::uint32_t i = 0; i < 3; ++i)
        CHECK(d.add(i, chunk_of(map, i), 1) == MapDownload::Took::fresh);
    REQUIRE(d.complete());
    const auto bytes = d.bytes();
    REQUIRE(!bytes);
    CHECK(bytes.error().message.find("do not hash") != std::string::npos);
}

TEST_CASE("a 4 MiB download completes at 8 chunks a tick, 100 ms round trip, 5 % loss each way") {
    // The server's side simulated: a queue of asked chunks, 8 sent a tick
    // (60 a second), each way 50 ms and 5 % lost.
    const auto map = some_bytes(kMaxMapBytes);
    auto d =
        MapDownload::start(map_bytes_hash(map), static_cast<std::uint32_t>(map.size())).value();
    std::mt19937 rng(11);
    const auto lost = [&rng] { return rng() % 100 < 5; };
    std::multimap<std::uint64_t, std::vector<std::uint32_t>> requests;  // arriving at the server
    std::multimap<std::uint64_t, std::uint32_t> chunks;                 // arriving at the client
    std::deque<std::uint32_t> queue;
    std::uint64_t now = 0;
    for (; !d.complete() && now < 600'000; ++now) {
        if (now % 16 == 0) {  // the client's tick
            const auto asked = d.due(now);
            if (!asked.empty() && !lost()) requests.emplace(now + 50, asked);
        }
        for (auto it = requests.begin(); it != requests.end() && it->first <= now;) {
            queue.insert(queue.end(), it->second.begin(), it->second.end());
            it = requests.erase(it);
        }
        if (now % 17 == 0)  // the server's tick (about 60 a second)
            for (int k = 0; k < 8 && !queue.empty(); ++k) {
                if (!lost()) chunks.emplace(now + 50, queue.front());
                queue.pop_front();
            }
        for (auto it = chunks.begin(); it != chunks.end() && it->first <= now;) {
            d.add(it->second, chunk_of(map, it->second), now);
            it = chunks.erase(it);
        }
    }
    REQUIRE(d.complete());
    CHECK(*d.bytes() == map);
    const double seconds = static_cast<double>(now) / 1000.0;
    MESSAGE("4 MiB in " << seconds << " s (the pace alone: " << 4096.0 / 8.0 / 60.0 << " s)");
    CHECK(seconds < 20.0);
}
