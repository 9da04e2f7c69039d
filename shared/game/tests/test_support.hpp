#pragma once
// A small hand-built map for the match tests: a 60 x 30 field, goals at both
// ends, one spawn per team slot.
#include <cstdint>

#include "carom/game/map.hpp"

namespace carom::game::test {

inline Map small_map(std::uint32_t team_size = 1) {
    Map m;
    m.name = "small";
    m.size = {60.0, 30.0};
    m.boxes = {{{30.0, 32.0}, {34.0, 2.0}},
               {{30.0, -2.0}, {34.0, 2.0}},
               {{-2.0, 5.0}, {2.0, 5.0}},
               {{-2.0, 25.0}, {2.0, 5.0}},
               {{62.0, 5.0}, {2.0, 5.0}},
               {{62.0, 25.0}, {2.0, 5.0}},
               // Goal pockets: back walls and sides.
               {{-10.0, 15.0}, {2.0, 9.0}},
               {{70.0, 15.0}, {2.0, 9.0}},
               {{-6.0, 8.0}, {6.0, 2.0}},
               {{-6.0, 22.0}, {6.0, 2.0}},
               {{66.0, 8.0}, {6.0, 2.0}},
               {{66.0, 22.0}, {6.0, 2.0}}};
    m.goals = {{Team::left, {0.0, 10.0}, {0.0, 20.0}}, {Team::right, {60.0, 10.0}, {60.0, 20.0}}};
    // Six a side per column, in columns 5 apart (all on the field, clear of the
    // walls and of each other: players have radius 2).
    for (std::uint32_t i = 0; i < team_size; ++i) {
        const double x = 15.0 - 5.0 * (i / 6);
        const double y = 5.0 + 4.0 * (i % 6);
        m.spawns.push_back({Team::left, {x, y}});
        m.spawns.push_back({Team::right, {60.0 - x, y}});
    }
    m.puck_spawns = {{30.0, 15.0}};
    m.team_size = team_size;
    m.match_seconds = 60;
    m.score_limit = 3;
    return m;
}

}  // namespace carom::game::test
