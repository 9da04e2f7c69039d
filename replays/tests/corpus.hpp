#pragma once
// The corpus files and a seed for the random tests: CAROM_TEST_SEED when set
// (to repeat a failure), else a fresh one; either way it is printed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace carom::tool::test {

inline std::vector<std::string> corpus_files() {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(CAROM_CORPUS_DIR))
        if (e.path().extension() == ".crpl") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

inline std::uint64_t test_seed() {
    static const std::uint64_t seed = [] {
        if (const char* s = std::getenv("CAROM_TEST_SEED"); s != nullptr && *s != '\0')
            return static_cast<std::uint64_t>(std::strtoull(s, nullptr, 10));
        return (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    }();
    std::printf("seed %llu (CAROM_TEST_SEED=%llu repeats this run)\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
    return seed;
}

}  // namespace carom::tool::test
