// carom_viewer.h: carom-replay's seek engine and scene (replays/tool) behind
// the C ABI, on a libcarom replay handle.
#include "carom_viewer.h"

#include <optional>

#include "api_support.hpp"
#include "handles.hpp"
#include "scene_api.hpp"
#include "seek.hpp"
#include "view.hpp"

struct carom_viewer {
    explicit carom_viewer(const carom_replay& r) : replay(r), engine(r.replay) {}
    const carom_replay& replay;
    carom::tool::SeekEngine engine;
    carom::render::SceneBuilder builder;
    carom_match view;  // borrows the engine's match
};

namespace carom::capi {
namespace {

carom_viewer& viewer_of(carom_viewer* v) {
    return *require(v, "viewer");
}

const carom_viewer& viewer_of(const carom_viewer* v) {
    return *require(v, "viewer");
}

void show(carom_viewer& v) {
    borrow(v.view, v.engine.match(), v.replay.map_hash, {});
}

}  // namespace
}  // namespace carom::capi

using namespace carom;
using namespace carom::capi;

extern "C" {

carom_status carom_viewer_create(const carom_replay* replay, carom_viewer** out) {
    return guarded([&] {
        require(out, "out");
        auto v = std::make_unique<carom_viewer>(*require(replay, "replay"));
        show(*v);
        *out = v.release();
    });
}

void carom_viewer_free(carom_viewer* viewer) {
    delete viewer;
}

carom_status carom_viewer_get_info(const carom_viewer* viewer, carom_viewer_info* out) {
    return guarded([&] {
        const carom_viewer& v = viewer_of(viewer);
        carom_viewer_info& i = *require(out, "out");
        i = {};
        i.tick = v.engine.tick();
        i.last_tick = v.engine.last_tick();
        i.length = tool::timeline_length(v.replay.replay);
        i.tick_rate = v.replay.replay.header.tick_rate;
        i.goals = static_cast<std::uint32_t>(v.engine.goals().size());
    });
}

carom_status carom_viewer_seek(carom_viewer* viewer, uint64_t tick, uint64_t* steps) {
    return guarded([&] {
        carom_viewer& v = viewer_of(viewer);
        const Status status = v.engine.seek(tick);
        show(v);
        if (steps != nullptr) *steps = v.engine.last_seek_steps();
        if (!status) throw Failure{CAROM_ERROR_DATA, status.error().message};
    });
}

const carom_match* carom_viewer_match(const carom_viewer* viewer) {
    return viewer != nullptr ? &viewer->view : nullptr;
}

carom_status carom_viewer_goals(const carom_viewer* viewer, carom_viewer_goal* goals,
                                size_t capacity, size_t* count) {
    return guarded([&] {
        const auto slot = [](const std::optional<game::Slot>& s) {
            return s ? static_cast<int32_t>(*s) : -1;
        };
        fill(goals, capacity, count, viewer_of(viewer).engine.goals(),
             [&](const tool::GoalMark& g) {
                 return carom_viewer_goal{g.tick, g.team == game::Team::left ? 0 : 1,
                                          slot(g.scorer), slot(g.own_goal_by)};
             });
    });
}

carom_status carom_viewer_scene(carom_viewer* viewer, int32_t follow, carom_scene_disk* disks,
                                size_t capacity, size_t* count, carom_scene_hud* hud) {
    return guarded([&] {
        carom_viewer& v = viewer_of(viewer);
        tool::ViewOptions options;
        if (follow >= 0) options.follow = static_cast<game::Slot>(follow);
        render::Scene scene = tool::build_scene(v.builder, v.engine, options);
        if (const std::string end = tool::end_banner(v.engine); !end.empty()) {
            scene.hud.banner = end;
        } else if (scene.hud.phase == render::Phase::goal) {
            const std::string by = tool::goal_note(v.engine);
            scene.hud.banner = by.empty() ? "GOAL!" : "GOAL! " + by;
        }
        fill_scene(scene, disks, capacity, count, hud);
    });
}

}  // extern "C"
