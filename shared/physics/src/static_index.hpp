#pragma once
// Where the world's statics are: a grid over their bounds, and the planes,
// which have no bounds and are near everything.
#include <cstdint>
#include <vector>

#include "cell_grid.hpp"

namespace carom::physics::detail {

struct StaticIndex {
    CellGrid grid;                         // every static but the planes
    std::vector<std::uint32_t> unbounded;  // the planes, ascending

    // Calls visit(i) once for each static whose bounds may overlap `box`.
    template <class Visit>
    void query(const Aabb& box, Visit&& visit) const {
        grid.query(box, visit);
        for (const std::uint32_t s : unbounded)
            visit(s);
    }
};

}  // namespace carom::physics::detail
