// The step does not allocate once its scratch memory has grown to the
// scene: counted by replacing the global allocation functions, which is why
// this test is a binary of its own.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "carom/physics/world.hpp"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// GCC cannot see that these malloc/free replacements pair up with each other.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
    ++g_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
// Over-aligned types (the sweep's per-disk cache lines) come through these.
void* operator new(std::size_t size, std::align_val_t align) {
    ++g_allocations;
    const auto alignment = static_cast<std::size_t>(align);
    const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
    if (void* p = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}

namespace carom::physics {
namespace {

TEST_CASE("steps after warm-up allocate nothing") {
    World w;
    w.create_box({Box{{-5.0, 50.0}, {5.0, 60.0}}, {}});
    w.create_box({Box{{105.0, 50.0}, {5.0, 60.0}}, {}});
    w.create_box({Box{{50.0, -5.0}, {60.0, 5.0}}, {}});
    w.create_box({Box{{50.0, 105.0}, {60.0, 5.0}}, {}});
    for (int i = 0; i < 400; ++i) {
        const double x = 2.5 + 5.0 * (i % 20);
        const double y = 2.5 + 5.0 * (i / 20);
        DiskDef d;
        d.position = {x, y};
        d.velocity = {40.0 * ((i * 7) % 11 - 5), 40.0 * ((i * 3) % 7 - 3)};
        d.radius = 2.0;
        w.create_disk(d);
    }
    for (int t = 0; t < 300; ++t)
        w.step();  // warm-up: scratch grows to its peak
    const long before = g_allocations.load();
    for (int t = 0; t < 300; ++t)
        w.step();
    const long during = g_allocations.load() - before;
    INFO("allocations during 300 steps after warm-up: " << during);
    CHECK(during == 0);
}

}  // namespace
}  // namespace carom::physics
