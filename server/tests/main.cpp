#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

int main(int argc, char** argv) {
    // The server logs joins and matches at info; tests want only problems.
    spdlog::set_level(spdlog::level::warn);
    doctest::Context context(argc, argv);
    return context.run();
}
