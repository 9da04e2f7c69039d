#include "physics/scene.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace carom::bench {
namespace {

// xorshift32 (13, 17, 5): tiny and fully specified, so the scene does not
// depend on a standard library's distribution implementation.
class XorShift32 {
  public:
    explicit XorShift32(std::uint32_t seed) : state_(seed) {}

    std::uint32_t next() {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 17;
        state_ ^= state_ << 5;
        return state_;
    }

    // Uniform in [0, 1) from the top 24 bits, which a double holds exactly.
    double next_unit() { return static_cast<double>(next() >> 8) / 16777216.0; }

  private:
    std::uint32_t state_;
};

std::size_t grid_columns(std::size_t disk_count) {
    auto columns = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(disk_count))));
    // Guard the square root's rounding so that columns^2 >= n always holds.
    while (columns * columns < disk_count)
        ++columns;
    return columns;
}

std::array<WallSpec, 4> arena_walls() {
    constexpr double lo = -kWallThickness;
    constexpr double hi = kArenaSize + kWallThickness;
    return {{
        {lo, lo, 0.0, hi},         // left
        {kArenaSize, lo, hi, hi},  // right
        {lo, lo, hi, 0.0},         // bottom
        {lo, kArenaSize, hi, hi},  // top
    }};
}

}  // namespace

std::string_view to_string(Layout layout) {
    switch (layout) {
        case Layout::sparse:
            return "sparse";
        case Layout::dense:
            return "dense";
    }
    return "?";
}

Scene make_arena_scene(Layout layout, std::size_t disk_count) {
    const std::size_t columns = std::max<std::size_t>(1, grid_columns(disk_count));
    const double columns_d = static_cast<double>(columns);
    const double sparse_pitch = kArenaSize / columns_d;
    const bool dense_fits = columns_d * kDensePitch <= kArenaSize;
    const double pitch = (layout == Layout::dense && dense_fits) ? kDensePitch : sparse_pitch;
    // The block is columns x columns cells, centred; for sparse it is the whole arena.
    const double origin = (kArenaSize - columns_d * pitch) / 2.0;

    const double max_radius = std::min(kMaxRadius, pitch / 2.5);
    const double min_radius = std::min(kMinRadius, max_radius);

    Scene scene{layout, pitch, {}, arena_walls()};
    scene.disks.reserve(disk_count);
    XorShift32 rng(kSeed);
    for (std::size_t i = 0; i < disk_count; ++i) {
        const double column = static_cast<double>(i % columns);
        const double row = static_cast<double>(i / columns);
        // Draw order (radius, vx, vy) is part of the spec.
        const double radius = min_radius + (max_radius - min_radius) * rng.next_unit();
        const double vx = -kMaxSpeedPerAxis + 2.0 * kMaxSpeedPerAxis * rng.next_unit();
        const double vy = -kMaxSpeedPerAxis + 2.0 * kMaxSpeedPerAxis * rng.next_unit();
        scene.disks.push_back(
            {origin + (column + 0.5) * pitch, origin + (row + 0.5) * pitch, radius, vx, vy});
    }
    return scene;
}

std::uint64_t scene_fingerprint(std::span<const DiskSpec> disks) {
    constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
    constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;
    std::uint64_t hash = kFnvOffset;
    const auto add_float = [&hash](double value) {
        const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(value));
        for (int byte = 0; byte < 4; ++byte) {
            hash ^= (bits >> (8 * byte)) & 0xFFu;
            hash *= kFnvPrime;
        }
    };
    for (const DiskSpec& disk : disks) {
        add_float(disk.x);
        add_float(disk.y);
        add_float(disk.radius);
        add_float(disk.vx);
        add_float(disk.vy);
    }
    return hash;
}

}  // namespace carom::bench
