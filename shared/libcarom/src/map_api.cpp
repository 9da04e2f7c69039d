// Maps: decoded into a validated map, and read back for drawing (files and
// text are parsed in map_files_api.cpp: the browser build has no parser).
#include <string>

#include "api_support.hpp"
#include "carom/protocol/map_codec.hpp"
#include "handles.hpp"

namespace carom::capi {

carom_map* new_map(game::Map map) {
    const std::uint64_t hash = protocol::map_hash(map);
    return new carom_map{game::CheckedMap(std::move(map)), hash};
}

game::Map take_map(Result<game::Map> map) {
    if (!map) throw Failure{CAROM_ERROR_DATA, map.error().message};
    return std::move(*map);
}

namespace {

const game::Map& map_of(const carom_map* map) {
    return require(map, "map")->checked.get();
}

carom_shape shape_of(const physics::Box& box) {
    carom_shape s{};
    s.kind = CAROM_SHAPE_BOX;
    s.visible = 1;
    s.cx = box.center.x;
    s.cy = box.center.y;
    s.hx = box.half_extents.x;
    s.hy = box.half_extents.y;
    s.nx = box.axis.x;
    s.ny = box.axis.y;
    return s;
}

carom_shape shape_of(const physics::Segment& segment) {
    carom_shape s{};
    s.kind = CAROM_SHAPE_SEGMENT;
    s.visible = 1;
    s.ax = segment.a.x;
    s.ay = segment.a.y;
    s.bx = segment.b.x;
    s.by = segment.b.y;
    return s;
}

carom_shape shape_of(const game::Wall& wall) {
    carom_shape s{};
    switch (wall.shape) {
        case game::Wall::Shape::segment:
            s.kind = CAROM_SHAPE_SEGMENT;
            break;
        case game::Wall::Shape::arc:
            s.kind = CAROM_SHAPE_ARC;
            break;
        case game::Wall::Shape::plane:
            s.kind = CAROM_SHAPE_PLANE;
            break;
    }
    s.visible = wall.visible ? 1 : 0;
    s.rgb = wall.color;
    s.ax = wall.a.x;
    s.ay = wall.a.y;
    s.bx = wall.b.x;
    s.by = wall.b.y;
    s.cx = wall.center.x;
    s.cy = wall.center.y;
    if (wall.shape == game::Wall::Shape::plane) {
        const double length = physics::length(wall.normal);
        s.nx = wall.normal.x / length;
        s.ny = wall.normal.y / length;
        s.offset = wall.offset;
    }
    return s;
}

template <typename T>
const T& at(const std::vector<T>& items, std::uint32_t index, const char* what) {
    if (index >= items.size())
        throw Failure{CAROM_ERROR_ARGUMENT, std::string(what) + " " + std::to_string(index) +
                                                " of " + std::to_string(items.size())};
    return items[index];
}

}  // namespace
}  // namespace carom::capi

using namespace carom;
using namespace carom::capi;

extern "C" {

uint8_t carom_input_toward(double dx, double dy, int kick) {
    return game::Input::toward({dx, dy}, kick != 0).bits();
}

carom_status carom_map_from_binary(const uint8_t* bytes, size_t size, carom_map** out) {
    return make_map(out, [&] {
        return take_map(protocol::map_from_binary({require(bytes, "bytes"), size}));
    });
}

void carom_map_free(carom_map* map) {
    delete map;
}

carom_status carom_map_get_info(const carom_map* map, carom_map_info* out) {
    return guarded([&] {
        const game::Map& m = map_of(map);
        carom_map_info& i = *require(out, "out");
        i = {};
        copy_text(i.name, m.name);
        i.width = m.size.x;
        i.height = m.size.y;
        i.team_size = m.team_size;
        i.slots = 2 * m.team_size;
        i.pucks = static_cast<std::uint32_t>(m.puck_spawns.size());
        i.discs = static_cast<std::uint32_t>(m.discs.size());
        i.shapes = static_cast<std::uint32_t>(m.boxes.size() + m.segments.size() + m.walls.size());
        i.posts = static_cast<std::uint32_t>(m.posts.size());
        i.goals = static_cast<std::uint32_t>(m.goals.size());
        i.match_seconds = m.match_seconds;
        i.score_limit = m.score_limit;
        i.player_radius = m.tuning.player_radius;
        i.puck_radius = m.tuning.puck_radius;
        i.hash = map->hash;
    });
}

carom_status carom_map_shape(const carom_map* map, uint32_t index, carom_shape* out) {
    return guarded([&] {
        const game::Map& m = map_of(map);
        require(out, "out");
        std::size_t i = index;
        if (i < m.boxes.size()) {
            *out = shape_of(m.boxes[i]);
            return;
        }
        i -= m.boxes.size();
        if (i < m.segments.size()) {
            *out = shape_of(m.segments[i]);
            return;
        }
        i -= m.segments.size();
        *out = shape_of(at(m.walls, static_cast<std::uint32_t>(i), "shape"));
    });
}

carom_status carom_map_post(const carom_map* map, uint32_t index, carom_circle* out) {
    return guarded([&] {
        const game::Post& p = at(map_of(map).posts, index, "post");
        *require(out, "out") = {p.position.x, p.position.y, p.radius, p.color};
    });
}

carom_status carom_map_disc(const carom_map* map, uint32_t index, carom_circle* out) {
    return guarded([&] {
        const game::Disc& d = at(map_of(map).discs, index, "disc");
        *require(out, "out") = {d.position.x, d.position.y, d.radius, d.color};
    });
}

carom_status carom_map_goal(const carom_map* map, uint32_t index, carom_goal* out) {
    return guarded([&] {
        const game::Goal& g = at(map_of(map).goals, index, "goal");
        *require(out, "out") = {static_cast<int32_t>(game::index_of(g.defender)), g.post_a.x,
                                g.post_a.y, g.post_b.x, g.post_b.y};
    });
}
}
