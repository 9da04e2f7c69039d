#include "collision_flags.hpp"

#include <map>

namespace carom::stadium::detail {

using nlohmann::json;
namespace groups = game::groups;

std::optional<std::uint32_t> flag_bits(const std::string& name) {
    static const std::map<std::string, std::uint32_t> kFlags = {
        {"ball", groups::kBall},
        {"red", groups::kRed},
        {"blue", groups::kBlue},
        {"redKO", groups::kRedKickoff},
        {"blueKO", groups::kBlueKickoff},
        {"wall", groups::kWall},
        {"all", groups::kAll},
        {"kick", groups::kKick},
        {"score", groups::kScore},
        {"c0", groups::kC0},
        {"c1", groups::kC1},
        {"c2", groups::kC2},
        {"c3", groups::kC3},
    };
    if (const auto it = kFlags.find(name); it != kFlags.end()) return it->second;
    return std::nullopt;
}

Result<std::uint32_t> flags(const StadiumObject& o, const std::string& key, std::uint32_t fallback,
                            ImportNotes& notes) {
    const json* v = o.get(key);
    if (v == nullptr) return fallback;
    if (!v->is_array()) return refuse(o.field(key), "must be a list of collision flags");
    std::uint32_t bits = 0;
    for (const json& name : *v) {
        if (!name.is_string()) return refuse(o.field(key), "must be a list of collision flags");
        const auto bit = flag_bits(name.get<std::string>());
        if (!bit) {
            notes.ignore(o.field(key), "unknown collision flag \"" + name.get<std::string>() +
                                           "\": no bit (the flags are ball, red, blue, redKO, "
                                           "blueKO, wall, all, kick, score, c0-c3)");
            continue;
        }
        bits |= *bit;
    }
    return bits;
}

Result<game::Collision> collision(const StadiumObject& o, game::Collision fallback,
                                  ImportNotes& notes) {
    const auto group = flags(o, "cGroup", fallback.group, notes);
    if (!group) return group.error();
    const auto mask = flags(o, "cMask", fallback.mask, notes);
    if (!mask) return mask.error();
    return game::Collision{*group, *mask};
}

}  // namespace carom::stadium::detail
