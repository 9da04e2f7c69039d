// The stadium's two goals: a line each, defended by red (left) or blue (right).
#include "field_values.hpp"
#include "importer.hpp"

namespace carom::stadium::detail {

using nlohmann::json;

Status Importer::read_goals() {
    const auto it = root_.find("goals");
    if (it == root_.end() || !it->is_array() || it->size() != 2)
        return refuse("goals", "carom plays with exactly two goals, one per team");
    for (std::size_t i = 0; i < 2; ++i) {
        const auto o =
            traits_.object((*it)[i], index_path("goals", i), {"p0", "p1", "team", "trait"}, notes_);
        if (!o) return o.error();
        const json* p0 = o->get("p0");
        const json* p1 = o->get("p1");
        const json* team = o->get("team");
        if (p0 == nullptr) return refuse(o->field("p0"), "is required");
        if (p1 == nullptr) return refuse(o->field("p1"), "is required");
        const auto post_a = point(*p0, o->field("p0"));
        if (!post_a) return post_a.error();
        const auto post_b = point(*p1, o->field("p1"));
        if (!post_b) return post_b.error();
        if (team == nullptr || !team->is_string() || (*team != "red" && *team != "blue"))
            return refuse(o->field("team"), "must be \"red\" or \"blue\"");
        map_.goals.push_back({*team == "red" ? game::Team::left : game::Team::right,
                              to_field(*post_a), to_field(*post_b)});
    }
    return {};
}

}  // namespace carom::stadium::detail
