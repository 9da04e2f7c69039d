#pragma once
// A directory of the test's own under the system's temporary directory,
// removed with everything in it when the test is done.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace carom::test {

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "carom-test-XXXXXX").string();
        path = ::mkdtemp(pattern.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

}  // namespace carom::test
