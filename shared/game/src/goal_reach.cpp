#include "goal_reach.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "carom/physics/geometry.hpp"

// A grid of square cells of side h covers the field, the goals and a margin
// around them. A cell is free when a puck centred on it keeps at least
// r + h/2 from every wall (r the puck's radius): then the puck can slide
// in a straight line between the centres of two free cells side by side,
// since every point of that line is within h/2 of one of them. A goal is
// reachable from a puck spawn when the flood fill of free cells from the
// spawn's cell (and its free neighbours) reaches a cell whose centre lies
// behind the goal line, between the posts. So "reachable" is never said of
// a goal a puck cannot reach; a passage narrower than the puck plus about a
// cell counts as closed. h is half the puck's radius, or coarser on a large
// map, so that the grid has at most kCells cells a side: the check's time
// and memory are bounded by the map limits.
namespace carom::game::detail {
namespace {

constexpr double kCells = 1024.0;

std::string num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

struct Grid {
    Vec2 origin;
    double h = 1.0;
    int nx = 0, ny = 0;
    std::vector<std::uint8_t> blocked;

    Vec2 centre(int x, int y) const { return origin + Vec2{(x + 0.5) * h, (y + 0.5) * h}; }
    int column(double x) const { return static_cast<int>(std::floor((x - origin.x) / h)); }
    int row(double y) const { return static_cast<int>(std::floor((y - origin.y) / h)); }
    bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < nx && y < ny; }
    std::size_t at(int x, int y) const {
        return static_cast<std::size_t>(y) * static_cast<std::size_t>(nx) +
               static_cast<std::size_t>(x);
    }

    // Blocks the cells within `clearance` of the closest point `closest(c)`
    // among those whose centres lie in [lo, hi].
    template <class Closest>
    void block_near(Vec2 lo, Vec2 hi, double clearance, Closest&& closest) {
        const int x0 = std::max(0, column(lo.x)), x1 = std::min(nx - 1, column(hi.x));
        const int y0 = std::max(0, row(lo.y)), y1 = std::min(ny - 1, row(hi.y));
        for (int y = y0; y <= y1; ++y) {
            for (int x = x0; x <= x1; ++x) {
                if (blocked[at(x, y)]) continue;
                const Vec2 c = centre(x, y);
                if (physics::length_squared(c - closest(c)) < clearance * clearance)
                    blocked[at(x, y)] = 1;
            }
        }
    }
};

Grid build_grid(const Map& map) {
    const double r = map.tuning.puck_radius;
    Vec2 lo{0.0, 0.0};
    Vec2 hi = map.size;
    for (const Goal& g : map.goals) {
        for (const Vec2 p : {g.post_a, g.post_b}) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
        }
    }
    const double extent = std::max(hi.x - lo.x, hi.y - lo.y) + 8.0 * r;
    Grid grid;
    grid.h = std::max(r / 2.0, extent / kCells);
    const double margin = 4.0 * r + 2.0 * grid.h;  // room behind a goal line for a puck
    grid.origin = lo - Vec2{margin, margin};
    grid.nx = static_cast<int>(std::ceil((hi.x - lo.x + 2.0 * margin) / grid.h));
    grid.ny = static_cast<int>(std::ceil((hi.y - lo.y + 2.0 * margin) / grid.h));
    grid.blocked.assign(static_cast<std::size_t>(grid.nx) * static_cast<std::size_t>(grid.ny), 0);

    const double clearance = r + grid.h / 2.0;
    for (const Box& b : map.boxes) {
        const physics::Aabb box = physics::bounds_of(b);
        const Vec2 pad{clearance, clearance};
        grid.block_near(box.min - pad, box.max + pad, clearance,
                        [&b](Vec2 c) { return physics::closest_point(b, c); });
    }
    // A segment by samples h apart: a cell within `clearance` of the segment
    // is within clearance + h/2 of a sample, so a square of that half size
    // around each sample holds every cell to test.
    // Only the part of the segment near the grid is sampled, so a long
    // segment costs no more than one across the grid.
    const double reach = clearance + grid.h;
    const Vec2 grid_lo = grid.origin - Vec2{reach, reach};
    const Vec2 grid_hi = grid.origin + Vec2{grid.nx * grid.h + reach, grid.ny * grid.h + reach};
    for (const Segment& s : map.segments) {
        const Vec2 d = s.b - s.a;
        double t0 = 0.0, t1 = 1.0;  // the part of the segment inside [grid_lo, grid_hi]
        for (const auto& [p, v, low, high] : {std::array{s.a.x, d.x, grid_lo.x, grid_hi.x},
                                              std::array{s.a.y, d.y, grid_lo.y, grid_hi.y}}) {
            if (v == 0.0) {
                if (p < low || p > high) t1 = -1.0;
                continue;
            }
            const double ta = (low - p) / v, tb = (high - p) / v;
            t0 = std::max(t0, std::min(ta, tb));
            t1 = std::min(t1, std::max(ta, tb));
        }
        if (t0 > t1) continue;
        const Vec2 a = s.a + d * t0;
        const Vec2 b = s.a + d * t1;
        const double length = std::sqrt(physics::length_squared(b - a));
        const int samples = std::max(1, static_cast<int>(std::ceil(length / grid.h)));
        for (int k = 0; k <= samples; ++k) {
            const Vec2 p = a + (b - a) * (static_cast<double>(k) / samples);
            grid.block_near(p - Vec2{reach, reach}, p + Vec2{reach, reach}, clearance,
                            [&s](Vec2 c) { return physics::closest_point(s, c); });
        }
    }
    // Walls and posts that stop a puck, by their bounds (clipped to the
    // grid) and the exact distance; a one-sided wall as if it were two-sided,
    // which may close a passage it would let a puck through one way.
    const Vec2 whole_lo = grid.origin;
    const Vec2 whole_hi = grid.origin + Vec2{grid.nx * grid.h, grid.ny * grid.h};
    const Collision& puck = map.puck_collision;
    for (const Wall& w : map.walls) {
        if (!collides_with(w.collision, puck.group, puck.mask)) continue;
        Vec2 from = whole_lo, to = whole_hi;
        if (w.shape != Wall::Shape::plane) {
            const physics::Aabb box =
                w.shape == Wall::Shape::arc
                    ? physics::bounds_of(Arc{w.center, physics::length(w.a - w.center), w.a, w.b})
                    : physics::bounds_of(Segment{w.a, w.b});
            from = box.min - Vec2{clearance, clearance};
            to = box.max + Vec2{clearance, clearance};
        }
        const int x0 = std::max(0, grid.column(from.x)),
                  x1 = std::min(grid.nx - 1, grid.column(to.x));
        const int y0 = std::max(0, grid.row(from.y)), y1 = std::min(grid.ny - 1, grid.row(to.y));
        for (int y = y0; y <= y1; ++y) {
            for (int x = x0; x <= x1; ++x) {
                if (std::abs(distance_to_wall(w, grid.centre(x, y))) < clearance ||
                    (w.shape == Wall::Shape::plane && distance_to_wall(w, grid.centre(x, y)) < 0.0))
                    grid.blocked[grid.at(x, y)] = 1;
            }
        }
    }
    for (const Post& p : map.posts) {
        if (!collides_with(p.collision, puck.group, puck.mask)) continue;
        const double reach_post = clearance + p.radius;
        grid.block_near(p.position - Vec2{reach_post, reach_post},
                        p.position + Vec2{reach_post, reach_post}, reach_post,
                        [&p](Vec2) { return p.position; });
    }
    return grid;
}

// Labels the free cells connected to `seed` (4-neighbours) with `label`.
void flood(const Grid& grid, std::vector<std::uint16_t>& labels, int sx, int sy,
           std::uint16_t label) {
    std::vector<std::pair<int, int>> todo{{sx, sy}};
    labels[grid.at(sx, sy)] = label;
    while (!todo.empty()) {
        const auto [x, y] = todo.back();
        todo.pop_back();
        const int next[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
        for (const auto& n : next) {
            if (!grid.inside(n[0], n[1])) continue;
            const std::size_t i = grid.at(n[0], n[1]);
            if (grid.blocked[i] || labels[i] != 0) continue;
            labels[i] = label;
            todo.emplace_back(n[0], n[1]);
        }
    }
}

// The labels of the cells whose centres lie behind the goal line, between the posts.
std::vector<std::uint16_t> labels_behind(const Grid& grid, const std::vector<std::uint16_t>& labels,
                                         const Goal& g, Vec2 field_centre, double margin) {
    const Vec2 line = g.post_b - g.post_a;
    const double field_side = physics::cross(line, field_centre - g.post_a) > 0.0 ? 1.0 : -1.0;
    const double length2 = physics::length_squared(line);
    const Vec2 lo{std::min(g.post_a.x, g.post_b.x) - margin,
                  std::min(g.post_a.y, g.post_b.y) - margin};
    const Vec2 hi{std::max(g.post_a.x, g.post_b.x) + margin,
                  std::max(g.post_a.y, g.post_b.y) + margin};
    std::vector<std::uint16_t> found;
    for (int y = std::max(0, grid.row(lo.y)); y <= std::min(grid.ny - 1, grid.row(hi.y)); ++y) {
        for (int x = std::max(0, grid.column(lo.x)); x <= std::min(grid.nx - 1, grid.column(hi.x));
             ++x) {
            const std::uint16_t label = labels[grid.at(x, y)];
            if (label == 0) continue;
            const Vec2 c = grid.centre(x, y);
            if (!(field_side * physics::cross(line, c - g.post_a) < 0.0)) continue;
            const double u = physics::dot(c - g.post_a, line);
            if (u >= 0.0 && u <= length2) found.push_back(label);
        }
    }
    return found;
}

}  // namespace

Status check_goals_reachable(const Map& map) {
    const Grid grid = build_grid(map);
    const Vec2 field_centre = map.size * 0.5;
    // Each puck's own free cells around its spawn, each flooded once.
    std::vector<std::uint16_t> labels(grid.blocked.size(), 0);
    std::uint16_t next_label = 1;
    std::vector<std::vector<std::uint16_t>> puck_labels(map.puck_spawns.size());
    for (std::size_t p = 0; p < map.puck_spawns.size(); ++p) {
        const int sx = grid.column(map.puck_spawns[p].x), sy = grid.row(map.puck_spawns[p].y);
        for (int y = sy - 1; y <= sy + 1; ++y) {
            for (int x = sx - 1; x <= sx + 1; ++x) {
                if (!grid.inside(x, y) || grid.blocked[grid.at(x, y)]) continue;
                if (labels[grid.at(x, y)] == 0) flood(grid, labels, x, y, next_label++);
                puck_labels[p].push_back(labels[grid.at(x, y)]);
            }
        }
    }
    const double margin = 4.0 * map.tuning.puck_radius + 2.0 * grid.h;
    for (std::size_t g = 0; g < map.goals.size(); ++g) {
        const std::vector<std::uint16_t> behind =
            labels_behind(grid, labels, map.goals[g], field_centre, margin);
        for (std::size_t p = 0; p < map.puck_spawns.size(); ++p) {
            const bool reached = std::any_of(
                puck_labels[p].begin(), puck_labels[p].end(), [&behind](std::uint16_t l) {
                    return std::find(behind.begin(), behind.end(), l) != behind.end();
                });
            if (reached) continue;
            return fail("goals[" + std::to_string(g) + "]: unreachable: a puck of radius " +
                        num(map.tuning.puck_radius) + " cannot move from puck_spawns[" +
                        std::to_string(p) +
                        "] to behind its goal line between the posts (checked on a " + num(grid.h) +
                        "-unit grid)");
        }
    }
    return {};
}

}  // namespace carom::game::detail
