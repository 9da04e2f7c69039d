#include "broadphase.hpp"

#include <algorithm>
#include <cmath>

namespace carom::physics::detail {

void Broadphase::start(std::span<const SweepBody> bodies, double dt) {
    const std::size_t n = bodies.size();
    s_.nearby.resize(n);  // the grids report each disk once at most: any query fits
    s_.escaped.assign(n, 0u);
    escapees_ = 0;
    if (s_.neighbourhood_valid) {
        for (std::uint32_t i = 0; i < n; ++i) {
            const bool inside = contains(s_.reach[i], s_.swept[i]);
            const bool left = bodies[i].active & !inside;
            s_.escaped[i] = left ? 1u : 0u;
            escapees_ += left ? 1u : 0u;
        }
    }
    if (!s_.neighbourhood_valid || escapees_ > n / 8) rebuild(bodies, dt);
    s_.escapee_grid.reset(s_.cell_size, n);
    s_.near_escapee.assign(n, 0u);
}

// Reaches sized for about kReachTicks ticks of travel at the current speed.
void Broadphase::rebuild(std::span<const SweepBody> bodies, double dt) {
    constexpr double kReachTicks = 2.5;
    const std::size_t n = bodies.size();
    s_.reach.resize(n);
    s_.present.assign(n, 0u);
    double speed_sum = 0.0;
    std::size_t active = 0;
    for (const SweepBody& b : bodies) {
        if (!b.active) continue;
        speed_sum += std::abs(b.velocity.x) + std::abs(b.velocity.y);
        ++active;
    }
    // A slow disk hit by a faster one speeds up: no margin is smaller
    // than the one for the mean speed, or such disks escape at once.
    const double mean_speed = active == 0 ? 0.0 : speed_sum / static_cast<double>(active);
    double extent_sum = 0.0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const SweepBody& b = bodies[i];
        if (!b.active) continue;
        s_.present[i] = 1;
        const Aabb& swept = s_.swept[i];
        const double speed = std::max(std::abs(b.velocity.x) + std::abs(b.velocity.y), mean_speed);
        const double margin = (kReachTicks - 1.0) * speed * dt + 0.05 * b.radius;
        s_.reach[i] = {{swept.min.x - margin, swept.min.y - margin},
                       {swept.max.x + margin, swept.max.y + margin}};
        extent_sum +=
            std::max(s_.reach[i].max.x - s_.reach[i].min.x, s_.reach[i].max.y - s_.reach[i].min.y);
    }
    // Escapee cells about twice a typical reach: most reaches touch one to four cells.
    s_.cell_size =
        active == 0 ? 1.0 : std::max(2.0 * extent_sum / static_cast<double>(active), 1e-6);
    s_.cells.build(s_.reach, s_.present);
    s_.cells.find_pairs(s_.pairs);
    build_neighbour_lists(n);
    build_static_lists(n);
    std::fill(s_.escaped.begin(), s_.escaped.end(), 0u);
    escapees_ = 0;
    s_.neighbourhood_valid = true;
}

// Both directions of every pair, grouped by disk (counting sort).
void Broadphase::build_neighbour_lists(std::size_t n) {
    s_.neighbour_start.assign(n + 1, 0u);
    for (const auto& [i, j] : s_.pairs) {
        ++s_.neighbour_start[i + 1];
        ++s_.neighbour_start[j + 1];
    }
    for (std::size_t i = 0; i < n; ++i)
        s_.neighbour_start[i + 1] += s_.neighbour_start[i];
    s_.neighbours.resize(s_.neighbour_start[n]);
    s_.fill.assign(s_.neighbour_start.begin(), s_.neighbour_start.end() - 1);
    for (const auto& [i, j] : s_.pairs) {
        s_.neighbours[s_.fill[i]++] = j;
        s_.neighbours[s_.fill[j]++] = i;
    }
}

// Each disk's statics near its reach, in static order (the order their
// impacts are scheduled in), from the static grid: the cost follows the
// disks, not the number of walls.
void Broadphase::build_static_lists(std::size_t n) {
    s_.static_start.assign(n + 1, 0u);
    s_.static_neighbours.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
        if (s_.present[i]) {
            const auto first = static_cast<std::ptrdiff_t>(s_.static_neighbours.size());
            static_grid_.query(s_.reach[i],
                               [&](std::uint32_t st) { s_.static_neighbours.push_back(st); });
            std::sort(s_.static_neighbours.begin() + first, s_.static_neighbours.end());
        }
        s_.static_start[i + 1] = static_cast<std::uint32_t>(s_.static_neighbours.size());
    }
}

}  // namespace carom::physics::detail
