#include "importer.hpp"

#include <set>

namespace carom::stadium::detail {

Status Importer::run() {
    if (auto read = read_top_level(); !read) return read;
    if (auto read = traits_.read(root_); !read) return read;
    // The ball first: "disc0" takes the first disc as the ball.
    if (auto read = read_ball(); !read) return read;
    if (auto read = read_player_physics(); !read) return read;
    if (auto read = read_vertexes(); !read) return read;
    if (auto read = read_segments(); !read) return read;
    add_lone_vertexes();
    if (auto read = read_planes(); !read) return read;
    if (auto read = read_goals(); !read) return read;
    if (auto read = read_discs(); !read) return read;
    return read_spawns();
}

Status Importer::read_top_level() {
    if (!root_.is_object()) return refuse("(the file)", "a stadium is one object");
    static const std::set<std::string> kKnown = {"name",
                                                 "width",
                                                 "height",
                                                 "cameraWidth",
                                                 "cameraHeight",
                                                 "maxViewWidth",
                                                 "cameraFollow",
                                                 "spawnDistance",
                                                 "canBeStored",
                                                 "kickOffReset",
                                                 "bg",
                                                 "traits",
                                                 "vertexes",
                                                 "segments",
                                                 "goals",
                                                 "discs",
                                                 "planes",
                                                 "joints",
                                                 "redSpawnPoints",
                                                 "blueSpawnPoints",
                                                 "playerPhysics",
                                                 "ballPhysics"};
    for (const auto& [key, value] : root_.items()) {
        if (!kKnown.contains(key))
            notes_.ignore(key, "not a field of the format; ignored, as HaxBall ignores it");
    }
    const auto name = root_.find("name");
    if (name == root_.end() || !name->is_string()) return refuse("name", "a name is required");
    map_.name = name->get<std::string>();
    for (const char* key : {"width", "height"}) {
        const auto it = root_.find(key);
        if (it == root_.end() || !it->is_number() || !(it->get<double>() > 0.0))
            return refuse(key, "must be a number above 0 (half the field's extent)");
    }
    half_ = {root_["width"].get<double>(), root_["height"].get<double>()};
    map_.size = half_ * 2.0;
    map_.team_size = 1;
    map_.match_seconds = options_.match_seconds;
    map_.score_limit = options_.score_limit;
    map_.kickoff_nudge = false;  // HaxBall's ball waits at rest for the kick-off

    if (const auto it = root_.find("joints"); it != root_.end()) {
        if (!it->is_array()) return refuse("joints", "must be a list");
        if (!it->empty()) return refuse("joints", "carom has no joints between discs");
    }
    if (const auto it = root_.find("kickOffReset"); it != root_.end()) {
        if (*it != "partial" && *it != "full")
            return refuse("kickOffReset", "must be \"partial\" or \"full\"");
        // "partial" resets the ball and the players, "full" the movable discs too.
        map_.kickoff_resets_discs = *it == "full";
    }
    for (const char* view : {"cameraWidth", "cameraHeight", "maxViewWidth", "cameraFollow"}) {
        if (root_.contains(view)) notes_.note(view, "carom's client shows the whole field");
    }
    if (root_.contains("canBeStored")) notes_.note("canBeStored", "a HaxBall room setting");
    if (root_.contains("bg"))
        notes_.note("bg", "carom draws its own pitch (walls, goals and posts)");
    return {};
}

}  // namespace carom::stadium::detail
