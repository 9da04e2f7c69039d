#pragma once
// The import of one stadium: its parts read in turn into a carom map. Each
// part has its file: importer.cpp the top-level fields and the order,
// walls.cpp vertexes, segments and planes, goals.cpp, discs.cpp,
// ball_and_players.cpp (ballPhysics, playerPhysics), spawns.cpp.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "carom/game/map.hpp"
#include "carom/result.hpp"
#include "carom/stadium/hbs.hpp"
#include "import_notes.hpp"
#include "map_sources.hpp"
#include "stadium_object.hpp"

namespace carom::stadium::detail {

// HaxBall's physics runs 60 steps a second, as carom's.
inline constexpr double kTickRate = 60.0;
// HaxBall kicks what is within 4 units of a player's edge.
inline constexpr double kKickReach = 4.0;

class Importer {
  public:
    Importer(const nlohmann::json& root, const ImportOptions& options)
        : root_(root), options_(options) {}

    // The whole stadium, or the first refusal: "field: reason".
    Status run();
    const game::Map& map() const { return map_; }
    // A problem the carom map's check found ("walls[3].b: ..."), with the
    // stadium's object it came from ("... (walls[3] is the stadium's segments[5])").
    std::string in_stadium_terms(const std::string& problem) const {
        return sources_.in_stadium_terms(problem);
    }
    Imported result() && { return {std::move(map_), std::move(notes_).all()}; }

  private:
    Status read_top_level();  // name, width, height and the settings of the whole match
    Status read_vertexes();
    Status read_segments();
    void add_lone_vertexes();
    Status read_planes();
    Status read_goals();
    Status read_discs();
    Status read_ball();
    Status read_player_physics();
    Status read_spawns();

    game::Vec2 to_field(game::Vec2 p) const { return {p.x + half_.x, p.y + half_.y}; }

    struct Vertex {
        game::Vec2 position;  // in the file's coordinates
        double restitution;
        game::Collision collision;
        bool used = false;  // a segment of its kind ends at it
    };

    const nlohmann::json& root_;
    ImportOptions options_;
    game::Map map_;
    ImportNotes notes_;
    MapSources sources_;
    Traits traits_;
    game::Vec2 half_;  // width and height: the field is [-w, w] x [-h, h] in the file
    std::vector<Vertex> vertexes_;
    std::optional<std::size_t> ball_disc_;  // ballPhysics: "disc0"
};

}  // namespace carom::stadium::detail
