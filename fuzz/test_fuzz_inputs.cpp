// Every committed seed and every input that once crashed a fuzz target,
// through the same entry point in the normal build (and so under the asan
// preset's sanitizers too): none may crash, leak or hang.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "carom/protocol/connect_token.hpp"
#include "carom/protocol/map_codec.hpp"
#include "entries.hpp"

namespace {

namespace fs = std::filesystem;
using Entry = int (*)(std::span<const std::uint8_t>);

// Runs every file of <layer>/fuzz/{corpus,regressions}/<target>; returns how many.
std::size_t run_all(const std::string& layer, const std::string& target, Entry entry) {
    std::vector<fs::path> files;
    for (const char* kind : {"corpus", "regressions"}) {
        const fs::path dir = fs::path(CAROM_SOURCE_DIR) / layer / "fuzz" / kind / target;
        if (!fs::is_directory(dir)) continue;
        for (const auto& f : fs::directory_iterator(dir))
            if (f.is_regular_file()) files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
        INFO(f.string());
        CHECK(entry(bytes) == 0);
    }
    return files.size();
}

}  // namespace

TEST_CASE("fuzz inputs: server datagrams") {
    CHECK(run_all("server", "server_datagrams", carom::fuzz::server_datagrams) >= 10);
}

TEST_CASE("fuzz inputs: client updates") {
    CHECK(run_all("shared/netclient", "client_updates", carom::fuzz::client_updates) >= 4);
}

TEST_CASE("fuzz inputs: the client seeds reach past the seal: every update is taken") {
    // Four seconds of a real server's updates to one player (its FullState,
    // then an update a tick): the client's copy takes them all, so mutations
    // of these seeds start from the deep paths, not from a refused seal.
    const fs::path file =
        fs::path(CAROM_SOURCE_DIR) / "shared/netclient/fuzz/corpus/client_updates/four-seconds";
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
    REQUIRE(!bytes.empty());
    CHECK(carom::fuzz::client_updates_taken(bytes) == 240);
}

TEST_CASE("fuzz inputs: replay reader") {
    CHECK(run_all("shared/replay", "replay_reader", carom::fuzz::replay_reader) >= 3);
}

TEST_CASE("fuzz inputs: map JSON") {
    CHECK(run_all("shared/protocol", "map_json", carom::fuzz::map_json) >= 3);
}

TEST_CASE("fuzz inputs: binary map") {
    CHECK(run_all("shared/protocol", "map_binary", carom::fuzz::map_binary) >= 3);
}

TEST_CASE("fuzz inputs: connect tokens") {
    CHECK(run_all("shared/protocol", "connect_token", carom::fuzz::connect_token) >= 8);
}

TEST_CASE("fuzz inputs: the token seeds open: their plaintexts reach past the tag") {
    const fs::path dir = fs::path(CAROM_SOURCE_DIR) / "shared/protocol/fuzz/corpus/connect_token";
    for (const char* name : {"small-private", "large-private"}) {
        std::ifstream in(dir / name, std::ios::binary);
        const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
        const carom::protocol::Key key = carom::fuzz::kFuzzTokenKey;
        INFO(name);
        // Made to expire at kFuzzTokenNow + 60: opened before it.
        CHECK(carom::protocol::open_connect_token(key, bytes, carom::fuzz::kFuzzTokenNow).token);
    }
}

TEST_CASE("fuzz inputs: HaxBall stadium") {
    CHECK(run_all("shared/stadium", "stadium_hbs", carom::fuzz::stadium_hbs) >= 3);
}

TEST_CASE("fuzz inputs: records split an input into datagrams") {
    using carom::fuzz::for_each_record;
    std::vector<std::pair<std::uint8_t, std::size_t>> seen;
    const std::vector<std::uint8_t> input{1, 2, 0, 'a', 'b', 2, 1, 0, 'c', 3, 9, 0, 'd'};
    for_each_record(
        input, [&](const carom::fuzz::Record& r) { seen.emplace_back(r.flags, r.bytes.size()); });
    REQUIRE(seen.size() == 3);
    CHECK(seen[0] == std::pair<std::uint8_t, std::size_t>{1, 2});
    CHECK(seen[1] == std::pair<std::uint8_t, std::size_t>{2, 1});
    CHECK(seen[2] == std::pair<std::uint8_t, std::size_t>{3, 1});  // cut short: what is left
}

// Found by fuzz-map-binary: a vector of 8-byte structs at 4 mod 8 passes
// FlatBuffers 2.0's verifier; reading it was undefined behaviour (UBSan).
TEST_CASE("fuzz regression: a binary map with misaligned puck spawns is refused") {
    const fs::path file = fs::path(CAROM_SOURCE_DIR) /
                          "shared/protocol/fuzz/regressions/map_binary/misaligned-puck-spawns";
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
    REQUIRE(!bytes.empty());
    const auto map = carom::protocol::map_from_binary(bytes);
    REQUIRE_FALSE(map.ok());
    CHECK(map.error().message == "puck_spawns: misaligned");
}

// Found by fuzz-map-binary once it fetched its inputs over the wire too: a
// box 0 high passed the map checks, and the client's match then refused it.
TEST_CASE("fuzz regression: a binary map with a flat box is refused by the map check") {
    const fs::path file =
        fs::path(CAROM_SOURCE_DIR) /
        "shared/protocol/fuzz/regressions/map_binary/flat-box-decodes-but-cannot-play";
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
    REQUIRE(!bytes.empty());
    const auto map = carom::protocol::map_from_binary(bytes);
    REQUIRE_FALSE(map.ok());
    CHECK(map.error().message.find("half_extents: must be finite and > 0") != std::string::npos);
    CHECK(carom::fuzz::map_binary(bytes) == 0);
}
