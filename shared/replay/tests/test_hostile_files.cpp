// Files made to hurt the tools: an embedded map far beyond the limits, a
// file beyond the size limit, names with terminal escapes. Each is refused
// quickly with the limit, or printed harmlessly.
#include <doctest/doctest.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "carom/replay/reader.hpp"
#include "carom/replay/writer.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

namespace {

struct Run {
    int code;
    std::string output;  // stdout and stderr
};

// Runs carom-replay with `args`, at most 60 s.
Run tool(const std::string& args) {
    const std::string command = "timeout 60 '" CAROM_REPLAY_TOOL "' " + args + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        out.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("a replay whose embedded map has 200 000 boxes is refused at once, with the limit") {
    test::TempFile file("huge-map");
    Header h;
    h.map = game::test::small_map(1);
    h.map.boxes.resize(200000, h.map.boxes[0]);
    { ReplayWriter writer(file.path(), h); }
    MESSAGE("file of " << std::filesystem::file_size(file.path()) << " bytes");
    auto start = std::chrono::steady_clock::now();
    const auto read = read_replay(file.path());
    MESSAGE("read_replay refused it in " << seconds_since(start) << " s");
    REQUIRE(!read.ok());
    CHECK(read.error().message.ends_with(": header map: boxes: 200000, at most 1024"));

    for (const std::string command : {"export --json", "verify", "info", "diff"}) {
        CAPTURE(command);
        start = std::chrono::steady_clock::now();
        const std::string second = command == "diff" ? " " + file.path().string() : "";
        const Run run = tool(command + " '" + file.path().string() + "'" + second);
        MESSAGE(command << ": exit " << run.code << " in " << seconds_since(start) << " s");
        CHECK(run.code == 2);
        CHECK(run.output.find("boxes: 200000, at most 1024") != std::string::npos);
    }
}

TEST_CASE("a file larger than a replay may be is refused by its size, before it is read") {
    test::TempFile file("huge-file");
    test::record_match(file.path(), 50);
    std::filesystem::resize_file(file.path(), kMaxReplayBytes + 1);  // sparse
    const auto start = std::chrono::steady_clock::now();
    const auto read = read_replay(file.path());
    MESSAGE("refused in " << seconds_since(start) << " s");
    REQUIRE(!read.ok());
    CHECK(read.error().message ==
          "at byte 0: file of 268435457 bytes is larger than a replay may be (268435456 bytes)");
    const Run run = tool("verify '" + file.path().string() + "'");
    CHECK(run.code == 2);
    CHECK(run.output.find("larger than a replay may be") != std::string::npos);
}

TEST_CASE("names with terminal escapes, control characters and bad UTF-8 print harmlessly") {
    test::TempFile file("hostile-names");
    const std::string evil = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\nfake log line\xff";
    {
        test::RecordedMatch rec(file.path(), game::test::small_map(2), 5, {{0, evil, true}});
        std::vector<game::Input> in(rec.match().slot_count());
        for (int t = 0; t < 20; ++t) {
            if (t == 10)
                rec.join(2,
                         "x\x1b[H\x9b"
                         "y",
                         true);
            rec.step(in);
        }
        rec.finish();
    }
    for (const std::string command : {"info", "info --json", "export --json"}) {
        CAPTURE(command);
        const Run run = tool(command + " '" + file.path().string() + "'");
        CHECK(run.code == 0);
        CHECK(run.output.find('\x1b') == std::string::npos);
        CHECK(run.output.find('\x07') == std::string::npos);
        CHECK(run.output.find("fake log line") != std::string::npos);
        CHECK(run.output.find("\nfake log line") == std::string::npos);
        CHECK(run.output.find("??red?fake log line?") != std::string::npos);
    }
}
