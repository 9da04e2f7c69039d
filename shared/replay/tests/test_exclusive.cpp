// The writer creates its file exclusively (writer.hpp): an existing file,
// another replay or not, is never truncated or written over.
#include <doctest/doctest.h>

#include "carom/replay/writer.hpp"
#include "replay_test_support.hpp"

using namespace carom;
using namespace carom::replay;

TEST_CASE("a replay writer refuses a path that exists and leaves the file as it was") {
    test::TempFile file("exclusive");
    test::record_match(file.path(), 130);
    const auto before = test::read_bytes(file.path());
    REQUIRE(before.size() > 100);
    Header h;
    h.map = game::test::small_map(1);
    {
        const ReplayWriter refused(file.path(), h);
        const Status created = refused.write_error();
        REQUIRE_FALSE(created.ok());
        CHECK(created.error().message.find("cannot create the replay") != std::string::npos);
    }
    CHECK(test::read_bytes(file.path()) == before);
}
