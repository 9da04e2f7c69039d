#pragma once
// The benchmark scene, independent of any engine: N disks with random radii and
// velocities inside a walled square arena, generated bit-for-bit the same on
// every platform so each engine is measured on exactly the same input.
#include <array>
#include <cstdint>
#include <numbers>
#include <span>
#include <string_view>
#include <vector>

namespace carom::bench {

inline constexpr double kArenaSize = 1000.0;  // interior is [0, kArenaSize]^2
inline constexpr double kWallThickness = 10.0;
inline constexpr double kTimeStep = 1.0 / 60.0;
inline constexpr double kDensity = 1.0;
inline constexpr double kDensePitch = 12.5;
inline constexpr double kMaxRadius = 5.0;
inline constexpr double kMinRadius = 2.0;
inline constexpr double kMaxSpeedPerAxis = 50.0;
inline constexpr std::uint32_t kSeed = 42;

enum class Layout : std::uint8_t { sparse, dense };

std::string_view to_string(Layout layout);

struct DiskSpec {
    double x;
    double y;
    double radius;
    double vx;
    double vy;

    double mass() const { return kDensity * std::numbers::pi * radius * radius; }
};

// An axis-aligned static box.
struct WallSpec {
    double min_x;
    double min_y;
    double max_x;
    double max_y;
};

struct Scene {
    Layout layout;
    double pitch;  // distance between neighbouring cell centres
    std::vector<DiskSpec> disks;
    std::array<WallSpec, 4> walls;
};

// Disks are laid row-major on a grid of ceil(sqrt(n)) columns. Sparse spreads
// the grid over the whole arena; dense packs it at kDensePitch, centred, unless
// that block would not fit, in which case it is the sparse grid.
Scene make_arena_scene(Layout layout, std::size_t disk_count);

// FNV-1a 64 over x, y, radius, vx, vy of every disk in order, each narrowed to
// a float and taken as 4 little-endian bytes. Floats, so that engines storing
// floats (Box2D) can be checked against the same value.
std::uint64_t scene_fingerprint(std::span<const DiskSpec> disks);

}  // namespace carom::bench
