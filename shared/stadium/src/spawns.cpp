// Where the players start: the teams' spawn points, or a line at
// spawnDistance from the centre; and how many a team has.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <utility>

#include "field_values.hpp"
#include "importer.hpp"

namespace carom::stadium::detail {

using game::Vec2;

Status Importer::read_spawns() {
    std::vector<Vec2> red, blue;
    for (const auto& [key, list] :
         {std::pair{"redSpawnPoints", &red}, std::pair{"blueSpawnPoints", &blue}}) {
        const auto it = root_.find(key);
        if (it == root_.end()) continue;
        if (!it->is_array()) return refuse(key, "must be a list of [x, y]");
        for (std::size_t i = 0; i < it->size(); ++i) {
            const auto p = point((*it)[i], index_path(key, i));
            if (!p) return p.error();
            list->push_back(to_field(*p));
        }
    }
    double distance = 0.0;
    if (const auto it = root_.find("spawnDistance"); it != root_.end()) {
        if (!it->is_number() || !std::isfinite(it->get<double>()))
            return refuse("spawnDistance", "must be a number");
        distance = it->get<double>();
    }
    std::uint32_t team_size = options_.team_size;
    if (team_size == 0) {
        team_size = !red.empty() && !blue.empty()
                        ? static_cast<std::uint32_t>(std::min(red.size(), blue.size()))
                        : 3;
        team_size = std::min(team_size, game::limits::kTeamSizeMax);
    }
    map_.team_size = team_size;
    // Without spawn points, HaxBall lines a team up at spawnDistance from
    // the centre: here one above the other, a player and a half apart.
    const double step = 3.0 * map_.tuning.player_radius;
    for (const auto& [team, list, side] :
         {std::tuple{game::Team::left, &red, -1.0}, std::tuple{game::Team::right, &blue, 1.0}}) {
        for (std::uint32_t k = 0; k < team_size; ++k) {
            Vec2 at;
            if (!list->empty()) {
                if (k >= list->size())
                    return refuse(side < 0 ? "redSpawnPoints" : "blueSpawnPoints",
                                  std::to_string(list->size()) + " points for a team of " +
                                      std::to_string(team_size));
                at = (*list)[k];
                sources_.add("spawns",
                             index_path(side < 0 ? "redSpawnPoints" : "blueSpawnPoints", k));
            } else {
                const double rank = static_cast<double>((k + 1) / 2) * (k % 2 == 1 ? 1.0 : -1.0);
                at = to_field({side * distance, rank * step});
                sources_.add("spawns", "spawnDistance");
            }
            map_.spawns.push_back({team, at});
        }
    }
    return {};
}

}  // namespace carom::stadium::detail
