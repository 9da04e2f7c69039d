// carom.h's replay viewer: the seek engine, the playback controls and the
// scene of shared/replay_view, on a libcarom replay handle.
#include <algorithm>
#include <optional>
#include <string>

#include "api_support.hpp"
#include "carom/replay_view/control.hpp"
#include "carom/replay_view/scene.hpp"
#include "handles.hpp"
#include "scene_api.hpp"

struct carom_viewer {
    explicit carom_viewer(const carom_replay& r)
        : replay(r),
          engine(r.replay),
          control(engine, carom::replay_view::timeline_length(r.replay), 0, true) {}
    const carom_replay& replay;
    carom::replay_view::SeekEngine engine;
    carom::replay_view::PlaybackControl control;
    carom::render::SceneBuilder builder;
    carom_match view;  // borrows the engine's match
};

namespace carom::capi {
namespace {

// carom_view_key is replay_view::ViewKey, value for value (press casts one to the other).
constexpr bool same_key(replay_view::ViewKey key, carom_view_key c) {
    return static_cast<int>(key) == static_cast<int>(c);
}
static_assert(same_key(replay_view::ViewKey::pause, CAROM_VIEW_PAUSE));
static_assert(same_key(replay_view::ViewKey::faster, CAROM_VIEW_FASTER));
static_assert(same_key(replay_view::ViewKey::slower, CAROM_VIEW_SLOWER));
static_assert(same_key(replay_view::ViewKey::back_5s, CAROM_VIEW_BACK_5S));
static_assert(same_key(replay_view::ViewKey::forward_5s, CAROM_VIEW_FORWARD_5S));
static_assert(same_key(replay_view::ViewKey::back_30s, CAROM_VIEW_BACK_30S));
static_assert(same_key(replay_view::ViewKey::forward_30s, CAROM_VIEW_FORWARD_30S));
static_assert(same_key(replay_view::ViewKey::previous_goal, CAROM_VIEW_PREVIOUS_GOAL));
static_assert(same_key(replay_view::ViewKey::next_goal, CAROM_VIEW_NEXT_GOAL));
static_assert(same_key(replay_view::ViewKey::tick_back, CAROM_VIEW_TICK_BACK));
static_assert(same_key(replay_view::ViewKey::tick_forward, CAROM_VIEW_TICK_FORWARD));
static_assert(same_key(replay_view::ViewKey::home, CAROM_VIEW_HOME));
static_assert(same_key(replay_view::ViewKey::end, CAROM_VIEW_END));

carom_viewer& viewer_of(carom_viewer* v) {
    return *require(v, "viewer");
}

const carom_viewer& viewer_of(const carom_viewer* v) {
    return *require(v, "viewer");
}

void show(carom_viewer& v) {
    borrow(v.view, v.engine.match(), v.replay.map_hash, {});
}

// The match brought to the playhead's tick.
void follow_playhead(carom_viewer& v) {
    const Status status = v.engine.seek(v.control.match_tick());
    show(v);
    if (!status) throw Failure{CAROM_ERROR_DATA, status.error().message};
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
        const std::uint32_t rate = v.replay.replay.header.tick_rate;
        i = {};
        i.tick = v.engine.tick();
        i.last_tick = v.engine.last_tick();
        i.length = v.control.length();
        i.position = v.control.position();
        i.speed = v.control.speed();
        i.paused = v.control.paused() ? 1 : 0;
        i.tick_rate = rate;
        i.goals = static_cast<std::uint32_t>(v.engine.goals().size());
        copy_text(i.time, replay_view::timeline_text(i.position, i.length, rate));
    });
}

carom_status carom_viewer_speeds(double* speeds, size_t capacity, size_t* count) {
    return guarded(
        [&] { fill(speeds, capacity, count, replay_view::kSpeeds, [](double s) { return s; }); });
}

carom_status carom_viewer_set_speed(carom_viewer* viewer, double speed) {
    return guarded([&] { viewer_of(viewer).control.set_speed(speed); });
}

carom_status carom_viewer_press(carom_viewer* viewer, int32_t key) {
    return guarded([&] {
        carom_viewer& v = viewer_of(viewer);
        if (key < CAROM_VIEW_PAUSE || key > CAROM_VIEW_END)
            throw Failure{CAROM_ERROR_ARGUMENT, "no such key: " + std::to_string(key)};
        v.control.press(static_cast<replay_view::ViewKey>(key));
        follow_playhead(v);
    });
}

carom_status carom_viewer_advance(carom_viewer* viewer, double seconds) {
    return guarded([&] {
        carom_viewer& v = viewer_of(viewer);
        v.control.advance(seconds);
        follow_playhead(v);
    });
}

carom_status carom_viewer_seek(carom_viewer* viewer, uint64_t position, uint64_t* steps) {
    return guarded([&] {
        carom_viewer& v = viewer_of(viewer);
        v.control.jump_to(position);
        const Status status = v.engine.seek(v.control.match_tick());
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
             [&](const replay_view::GoalMark& g) {
                 return carom_viewer_goal{g.tick, g.team == game::Team::left ? 0 : 1,
                                          slot(g.scorer), slot(g.own_goal_by)};
             });
    });
}

carom_status carom_viewer_scene(carom_viewer* viewer, int32_t follow, carom_scene_disk* disks,
                                size_t capacity, size_t* count, carom_scene_hud* hud) {
    return guarded([&] {
        carom_viewer& v = viewer_of(viewer);
        replay_view::ViewOptions options;
        if (follow >= 0) options.follow = static_cast<game::Slot>(follow);
        render::Scene scene = replay_view::build_scene(v.builder, v.engine, options);
        if (std::string end = replay_view::end_banner(v.engine); !end.empty())
            scene.hud.banner = std::move(end);
        fill_scene(scene, disks, capacity, count, hud);
    });
}

carom_status carom_clock_text(uint64_t ticks, uint32_t tick_rate, char* text, size_t capacity) {
    return guarded([&] {
        require(text, "text");
        if (capacity == 0) throw Failure{CAROM_ERROR_ARGUMENT, "capacity: 0"};
        const std::string t = replay_view::clock_text(ticks, tick_rate);
        const std::size_t n = std::min(t.size(), capacity - 1);
        std::copy_n(t.data(), n, text);
        text[n] = '\0';
    });
}

}  // extern "C"
